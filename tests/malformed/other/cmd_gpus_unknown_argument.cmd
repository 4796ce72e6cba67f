# command line: gpus with an unknown argument
gpus --all
