# command line: --max-insts that is not a number
run launch/ok.launch --max-insts lots
