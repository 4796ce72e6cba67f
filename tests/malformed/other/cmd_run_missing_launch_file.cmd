# input: a launch file that does not exist
run launch/nothere.launch
