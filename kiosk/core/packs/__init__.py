"""Packs and their proof: the pack format (``pack``), its signatures and the keys a station trusts
(``trust``), the verification that walks every trie in a process of its own before the station
parses one (``verification``), and the lexicon a ruling asks (``lexicon``)."""
