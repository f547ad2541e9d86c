"""Tournaments: duplicate deals, the same JSON whatever the workers or the backend, resume."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cardcore.apps.cli import main
from cardcore.services.plugins import load_registry
from cardcore.services.tournament import Results, Tournament, arrangements, run_tournament

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


def test_with_workers_every_unit_reaches_the_checkpoint_as_it_finishes(tmp_path):
    path = tmp_path / "t.jsonl"
    t = Tournament("casino", ["random", "greedy"], deals=6, seed=4, players=2)
    lines = []

    def count(unit):  # the checkpoint already holds the unit reported
        lines.append(len(path.read_text().splitlines()))

    run_tournament(REGISTRY, t, workers=2, checkpoint=path, progress=False, on_unit=count)
    assert lines == [2, 3, 4, 5, 6, 7]  # the header, then one more unit each time


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


@pytest.mark.slow
def test_ctrl_c_stops_the_workers_at_once_and_keeps_every_finished_unit(tmp_path):
    """Ctrl+C in a terminal reaches the command and its workers (one process group)."""
    path = tmp_path / "t.jsonl"
    args = ["tournament", "casino", "--bots", "medium,greedy", "--deals", "40", "--seed", "5",
            "--workers", "2", "--resume", str(path)]
    proc = subprocess.Popen([sys.executable, "-m", "cardcore", *args], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not path.exists() or len(path.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    asked = time.monotonic()
    assert proc.wait(timeout=30) == 130
    took = time.monotonic() - asked
    assert "resume with --resume" in proc.stderr.read()  # type: ignore[union-attr]
    kept = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert 2 <= len(kept) < 40
    assert took < 2.0, f"Ctrl+C took {took:.1f} s"  # the bar (12.7 s with batches)
    t = Tournament("casino", ["medium", "greedy"], deals=2, seed=5, players=2)
    whole = run_tournament(REGISTRY, t, progress=False)
    early = [u for u in kept if u["deal"] < 2]  # units start in deal order: the first end first
    assert early and early == [whole.done[(0, u["deal"])] for u in early]
    print(f"Ctrl+C took {took:.2f} s with {len(kept)} units kept")


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
    t = Tournament("casino", ["random", "medium"], deals=1, seed=2, players=2)  # one pair: CI's time
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
    assert local.to_json()["results"]["medium"]["hands"] == 2  # one deal, one pair, both seats
    print(f"ray start-up {started:.1f} s")
