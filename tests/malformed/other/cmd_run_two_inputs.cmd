# command line: two inputs to run
run launch/ok.launch launch/ok.launch
