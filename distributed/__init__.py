"""Work that outgrows one machine, on a Ray cluster: tournaments, seed sweeps, exploiters.

``cluster`` connects (usage statistics off, versions checked), ``tasks`` runs independent
pieces as retried Ray tasks, ``files`` sends model files to the workers. The games and agents
know nothing of Ray; the commands that take ``--ray`` call in here.
"""
