# command line: --gpu naming a directory
run --gpu other launch/ok.launch
