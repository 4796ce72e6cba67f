# command line: dis without an input
dis
