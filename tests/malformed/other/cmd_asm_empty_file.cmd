# input: an empty PTX file
asm --check /dev/null
