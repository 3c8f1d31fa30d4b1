"""The station as an assistive program reads it: every node of Qt's accessibility tree.

Hidden nodes included: a screen reader, a magnifier or any program on the AT-SPI bus may read a
node that the screen does not show (a hidden screen of a stack is still a child of the stack).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QWidget

__all__ = ["Node", "nodes", "said_anywhere"]

_TEXTS = (
    QAccessible.Text.Name,
    QAccessible.Text.Description,
    QAccessible.Text.Value,
    QAccessible.Text.Help,
)


@dataclass(frozen=True)
class Node:
    path: str
    role: QAccessible.Role
    texts: tuple[str, ...]
    invisible: bool


def _texts(iface: QAccessibleInterface) -> tuple[str, ...]:
    found = [iface.text(kind) for kind in _TEXTS]
    text = iface.textInterface()
    if text is not None:
        found.append(text.text(0, text.characterCount()))
    value = iface.valueInterface()
    if value is not None:
        found.append(str(value.currentValue()))
    return tuple(t for t in found if t)


def nodes(widget: QWidget) -> Iterator[Node]:
    """Every node under ``widget``'s accessible interface, depth first."""
    root = QAccessible.queryAccessibleInterface(widget)
    assert root is not None
    assert root.isValid()

    def walk(iface: QAccessibleInterface, path: str) -> Iterator[Node]:
        yield Node(path, iface.role(), _texts(iface), bool(iface.state().invisible))
        for index in range(iface.childCount()):
            child = iface.child(index)
            if child is not None and child.isValid():
                name = child.object().objectName() if child.object() is not None else ""
                yield from walk(child, f"{path}/{index}:{name}")

    yield from walk(root, "window")


def said_anywhere(widget: QWidget, *needles: str) -> list[tuple[str, str]]:
    """The nodes (path, text) whose texts hold any of ``needles`` (case-insensitive)."""
    wanted = [n.casefold() for n in needles]
    return [
        (node.path, text)
        for node in nodes(widget)
        for text in node.texts
        if any(w in text.casefold() for w in wanted)
    ]
