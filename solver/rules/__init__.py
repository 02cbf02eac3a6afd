"""The rules verifier: editions compared, the rulebooks' numbers checked against the models,
invariants proved and re-verified, certificates checked, every ambiguity measured."""
