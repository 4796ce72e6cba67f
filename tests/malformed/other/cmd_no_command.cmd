# command line: no command at all

