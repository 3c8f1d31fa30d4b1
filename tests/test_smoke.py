from kiosk.core.adjudication import Verdict, adjudicate
from kiosk.core.lexicon import MarisaLexicon


def test_one_bad_word_makes_the_whole_play_unacceptable(small_lexicon: MarisaLexicon) -> None:
    assert adjudicate(["cat", "qi"], small_lexicon).verdict is Verdict.ACCEPTABLE
    assert adjudicate(["cat", "qix"], small_lexicon).verdict is Verdict.UNACCEPTABLE
