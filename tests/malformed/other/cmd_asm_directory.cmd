# input: a directory instead of a PTX file
asm --check other
