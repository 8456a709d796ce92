"""Shared generator code for the held-out log sets (bench/testdata/heldoutN).

A set's gen/ script declares only its SYSTEMS: a dict from a system's name to
(header regular expression, templates). The header expression has a group
"h" (the header, kept out of Content) and a group "m" (the message); it may
have a group "tag", and a template given as (tag, template) is then the only
kind tried on lines whose tag is that tag. A template is event text with
<*> where the program prints a value at run time.

    from hogen import cli
    SYSTEMS = {...}
    if __name__ == "__main__":
        cli.main(SYSTEMS)

gives the script the commands label, check and words (see cli.py). No
template miner is read or run here: labels come from the templates alone.
"""
