# command line: check without an input
check
