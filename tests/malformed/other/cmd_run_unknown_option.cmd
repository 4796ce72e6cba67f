# command line: an unknown run option
run --fast launch/ok.launch
