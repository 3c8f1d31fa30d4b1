"""Today's counts: the challenges of each station since midnight, busiest first."""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.core.judge import JudgeState
from kiosk.ui.judge.page import TextPage

__all__ = ["CountsPage", "count_lines"]

# The page's words.
COUNTING = "Counting today's challenges\u2026"
LOCAL_ONLY = "The shared log cannot be reached: these are this station's challenges only."


def count_lines(counts: Mapping[str, int], this_station: str) -> list[str]:
    """Today's challenges per station, busiest first, this station marked; a total at the end."""
    if not counts:
        return ["No challenges yet today."]
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    lines = [
        f"{station}{'  (this station)' if station == this_station else ''}: {count}"
        for station, count in ordered
    ]
    lines.append(f"All stations: {sum(counts.values())}")
    return lines


class CountsPage(TextPage):
    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        counts = state.counts
        if counts.problem:
            self.show_lines([f"The log cannot be read: {counts.problem}"])
        elif counts.at is None:
            self.show_lines([COUNTING] if looking else [])
        else:
            station = state.station.config.station_name
            lines = [
                f"Challenges today (since midnight), at {counts.at:%H:%M}:",
                *count_lines(dict(counts.counts), station),
            ]
            self.show_lines([*lines, "", LOCAL_ONLY] if counts.local_only else lines)
