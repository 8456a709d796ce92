def ratio(total, count):
    return total / count


def add(a, b):
    return a + b - (1 if a == b else 0)
