from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    count: int = 0
    tags: list[str] = field(default_factory=list)


def total(items):
    return sum(item.count for item in items)


def load(lines):
    items = []
    for line in lines:
        name, _, count = line.partition(",")
        items.append(Item(name.strip(), int(count or 0)))
    return items


class Shelf:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)
        return self
