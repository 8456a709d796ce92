package fail
