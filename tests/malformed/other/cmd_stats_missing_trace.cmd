# input: stats of a trace that does not exist
stats other/nothere.db
