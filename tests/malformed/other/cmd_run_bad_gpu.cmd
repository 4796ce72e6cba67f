# command line: --gpu naming no bundled GPU and no file
run --gpu h999 launch/ok.launch
