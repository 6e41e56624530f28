"""What a mail asks for, carried out: the dispatcher and every mail command's handler."""
