"""Today's counts: the challenges of each station since midnight, busiest first."""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.core.judge import JudgeState
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui.judge.page import TextPage

__all__ = ["CountsPage", "count_lines"]

# The page's words.
COUNTING = marked("Counting today's challenges\u2026")
LOCAL_ONLY = marked("The shared log cannot be reached: these are this station's challenges only.")


def count_lines(counts: Mapping[str, int], this_station: str, t: Catalogue | None = None) -> list[str]:
    """Today's challenges per station, busiest first, this station marked; a total at the end."""
    t = t or english()
    if not counts:
        return [t.text("No challenges yet today.")]
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    mine = t.text("  (this station)")
    lines = [f"{station}{mine if station == this_station else ''}: {count}" for station, count in ordered]
    lines.append(t.text("All stations: {count}", count=sum(counts.values())))
    return lines


class CountsPage(TextPage):
    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        counts = state.counts
        if counts.problem:
            self.show_lines([t.text("The log cannot be read: {problem}", problem=t.say(counts.problem))])
        elif counts.at is None:
            self.show_lines([t.text(COUNTING)] if looking else [])
        else:
            station = state.station.config.station_name
            lines = [
                t.text("Challenges today (since midnight), at {time}:", time=f"{counts.at:%H:%M}"),
                *count_lines(dict(counts.counts), station, t),
            ]
            self.show_lines([*lines, "", t.text(LOCAL_ONLY)] if counts.local_only else lines)
