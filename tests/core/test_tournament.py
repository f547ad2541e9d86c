"""Tournaments: duplicate deals, the same JSON whatever the workers or the backend, resume."""

import json
import time

import pytest

from cardcore.apps.cli import main
from cardcore.services.plugins import load_registry
from cardcore.services.tournament import MAX_BATCH, Results, Tournament, arrangements, batches, run_tournament

REGISTRY = load_registry()


def test_every_bot_sits_in_every_seat_of_a_deal():
    assert arrangements(("a", "b"), 2, 2) == [["a", "b"], ["b", "a"]]
    assert arrangements(("a", "b"), 4, 2) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(arrangements(("a", "b"), 3, 3)) == 3


@pytest.mark.slow
def test_one_worker_and_two_give_the_same_json(capsys):
    args = ["tournament", "casino", "--bots", "random,greedy", "--deals", "4", "--seed", "3", "--json"]
    assert main([*args, "--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--workers", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two
    data = json.loads(one)
    assert data["results"]["greedy"]["mean_margin"] == -data["results"]["random"]["mean_margin"]
    assert data["results"]["greedy"]["hands"] == 8  # 4 deals, each played in both seats


def test_batches_cover_every_unit_once_and_shrink_towards_the_end():
    jobs = Tournament("casino", ["a", "b", "c"], deals=200).jobs()
    parts = batches(jobs, 2)
    assert [j for b in parts for j in b] == jobs
    sizes = [len(b) for b in parts]
    assert sizes[0] == MAX_BATCH and sizes[-1] == 1 and sizes == sorted(sizes, reverse=True)
    assert batches(jobs[:3], 8) == [[j] for j in jobs[:3]]


@pytest.mark.slow
def test_the_table_names_every_bot(capsys):
    assert main(["tournament", "crazy_eights", "--bots", "random,greedy,medium", "--deals", "1",
                 "--players", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert all(b in out for b in ("random", "greedy", "medium")) and "95% interval" in out


def test_an_interrupted_tournament_resumes(tmp_path):
    path = tmp_path / "t.jsonl"
    t = Tournament("casino", ["random", "greedy"], deals=5, seed=1, players=2)
    seen = []

    def stop_after_two(unit):
        seen.append(unit)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(REGISTRY, t, checkpoint=path, progress=False, on_unit=stop_after_two)
    assert len(path.read_text().splitlines()) == 3  # the header and two deals
    resumed = run_tournament(REGISTRY, t, checkpoint=path, progress=False)
    whole = run_tournament(REGISTRY, t, progress=False)
    assert resumed.to_json() == whole.to_json() and isinstance(whole, Results)


def test_a_checkpoint_of_another_tournament_is_refused(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    assert main(["tournament", "casino", "--bots", "random,greedy", "--deals", "1",
                 "--workers", "1", "--resume", str(path)]) == 0
    capsys.readouterr()
    assert main(["tournament", "casino", "--bots", "random,greedy", "--deals", "2", "--seed", "9",
                 "--workers", "1", "--resume", str(path)]) == 2
    assert "not a checkpoint of this tournament" in capsys.readouterr().err


@pytest.mark.slow
def test_ray_and_any_worker_count_give_the_same_json(capsys):
    """A local Ray instance (the `ray` extra, installed by make), one worker and two: the
    same JSON, search bots included (each process has its own hash seed)."""
    ray = pytest.importorskip("ray")
    t = Tournament("casino", ["random", "greedy", "medium"], deals=2, seed=2, players=2)
    local = run_tournament(REGISTRY, t, workers=1, progress=False)
    two = run_tournament(REGISTRY, t, workers=2, progress=False)
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    try:
        on_ray = run_tournament(REGISTRY, t, backend="ray", progress=False)
    finally:
        ray.shutdown()
    assert on_ray.to_json() == local.to_json() == two.to_json()
    assert local.to_json()["results"]["medium"]["hands"] == 8  # two deals, two pairs, both seats
    print(f"ray start-up {started:.1f} s")
