"""The organisers' pack builder: word lists in, verified reproducible lexicon packs out."""
