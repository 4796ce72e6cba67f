# command line: --grid with a launch file
run launch/ok.launch --grid 4
