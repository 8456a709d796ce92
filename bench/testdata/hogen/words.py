"""Check that every word of five or more letters in a system's templates
occurs in the strings of the program's binaries: a check that the templates
were written from the program and not made up."""
import re

from .label import text


def missing(templates, strings):
    """(word, template) for each long word of a template absent from strings."""
    out = []
    for t in map(text, templates):
        for w in re.findall(r"[A-Za-z]{5,}", t.replace("<*>", " ")):
            if w not in strings:
                out.append((w, t))
    return out
