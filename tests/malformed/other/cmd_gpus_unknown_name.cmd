# command line: gpus --params of an unknown GPU
gpus --params h999
