"""A helper script for the demo workspace."""


def greet(name):
    # TODO: validate the name
    return f"Hello, {name}!"


if __name__ == "__main__":
    print(greet("world"))
