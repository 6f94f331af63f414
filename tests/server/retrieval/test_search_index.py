"""The in-memory index behind semantic search: users past EXACT_SCAN_ROWS facts are scanned in
two stages (a coarse projection, then exact scores), appends write in place, and the results
match an exact scan."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from memorysync_server.domain import KEPT_TURN, NewFact
from memorysync_server.model import HashingEmbedder
from memorysync_server.retrieval import Backfill, FactSearch
from memorysync_server.retrieval.beside import Beside
from memorysync_server.retrieval.index import EXACT_SCAN_ROWS, SPLIT_ROWS, Projection, UserIndex, _grown, scan
from memorysync_server.storage.sqlite.engine import SqliteStorage

DIM = 48


class TableEmbedder:
    """Each text is 'fact <n>': its vector is row n of a fixed random table (queries too)."""

    dim = DIM

    def __init__(self, rows: int) -> None:
        table = np.random.default_rng(5).standard_normal((rows, DIM)).astype(np.float32)
        self.table = table / np.linalg.norm(table, axis=1, keepdims=True)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            words = text.split()
            if len(words) >= 2 and words[0] == "fact" and words[1].isdigit():
                out[row] = self.table[int(words[1])]
        return out


def test_large_users_are_scanned_coarse_then_exact_and_find_the_same_facts(tmp_path) -> None:
    size = EXACT_SCAN_ROWS + 500
    embedder = TableEmbedder(size + 10)
    store = SqliteStorage(tmp_path / "big.db")
    texts = [f"fact {i}" for i in range(size)]
    store.facts.add(
        "t", "u", [NewFact(t, "x", {}, v) for t, v in zip(texts, embedder.embed(texts), strict=True)]
    )
    search = FactSearch(store, embedder, mode="semantic")
    # The first search does not wait for the coarse projection (built in the background).
    assert search.search("t", "u", "fact 7", 1)[0][0].text == "fact 7"
    search.indexes.cached("t", "u")._build.done.wait(30)
    before = search.stages["vector (coarse + exact rerank)"]
    for i in (0, 1234, size - 1):
        assert search.search("t", "u", f"fact {i}", 3)[0][0].text == f"fact {i}"
    assert search.stages["vector (coarse + exact rerank)"] == before + 3
    # A fact added after the index was built is found through the coarse stage too.
    store.facts.add("t", "u", [NewFact(f"fact {size}", "x", {}, embedder.embed([f"fact {size}"])[0])])
    assert search.search("t", "u", f"fact {size}", 1)[0][0].text == f"fact {size}"
    assert search.stages["load"] == 1  # the append updated the cached index in place
    store.close()


def test_appends_write_in_place_and_older_snapshots_keep_their_rows() -> None:
    ids = np.arange(3, dtype=np.int64)
    matrix = np.eye(3, DIM, dtype=np.float32)
    first = UserIndex(ids, matrix, {}, dense=True)
    second = first.appended(np.array([3], dtype=np.int64), np.ones((1, DIM), dtype=np.float32))
    third = second.appended(np.array([4], dtype=np.int64), 2 * np.ones((1, DIM), dtype=np.float32))
    assert first.ids.tolist() == [0, 1, 2] and len(first.matrix) == 3
    assert second.ids.tolist() == [0, 1, 2, 3] and third.ids.tolist() == [0, 1, 2, 3, 4]
    assert third.matrix[4, 0] == 2.0 and third.matrix[3, 0] == 1.0
    assert third._matrix is second._matrix  # the second append used spare capacity
    smaller = third.without(np.array([1], dtype=np.int64))
    assert smaller.ids.tolist() == [0, 2, 3, 4] and third.ids.tolist() == [0, 1, 2, 3, 4]


def test_grown_keeps_column_major_buffers_column_major() -> None:
    buffer = np.asfortranarray(np.zeros((2, 4), dtype=np.float32))
    grown = _grown(buffer, 2, np.ones((3, 4), dtype=np.float32))
    assert grown.flags.f_contiguous and grown[:5].sum() == 12.0


def test_supersede_and_delete_after_the_index_is_cached_show_in_the_very_next_search(tmp_path) -> None:
    # Once exact (a small user), once through the coarse stage (a user past EXACT_SCAN_ROWS).
    for size in (50, EXACT_SCAN_ROWS + 200):
        embedder = TableEmbedder(size + 10)
        store = SqliteStorage(tmp_path / f"supersede-{size}.db")
        texts = [f"fact {i}" for i in range(size)]
        ids = store.facts.add(
            "t", "u", [NewFact(t, "x", {}, v) for t, v in zip(texts, embedder.embed(texts), strict=True)]
        )
        search = FactSearch(store, embedder, mode="semantic")
        assert search.search("t", "u", "fact 3", 1)[0][0].id == ids[3]
        if size > EXACT_SCAN_ROWS:
            search.indexes.cached("t", "u")._build.done.wait(30)
        # fact 3 superseded by fact 40 (far from it in the vector space): 40 now ranks first,
        # 3 just below it.
        store.facts.set_superseded("t", "u", {ids[3]: ids[40]})
        ranked = search.search("t", "u", "fact 3", 2)
        assert [fact.id for fact, _ in ranked] == [ids[40], ids[3]], size
        assert ranked[1][1] < ranked[0][1]
        # Cleared again: fact 3 is first on its own, and fact 40 is back far below.
        store.facts.set_superseded("t", "u", {ids[3]: None})
        assert [fact.id for fact, _ in search.search("t", "u", "fact 3", 1)] == [ids[3]], size
        # Superseded by another fact, then that one is deleted: fact 3 is current again.
        store.facts.set_superseded("t", "u", {ids[3]: ids[41]})
        assert [fact.id for fact, _ in search.search("t", "u", "fact 3", 2)] == [ids[41], ids[3]], size
        store.facts.delete("t", "u", [ids[41]])
        assert [fact.id for fact, _ in search.search("t", "u", "fact 3", 1)] == [ids[3]], size
        assert all(fact.id != ids[41] for fact, _ in search.search("t", "u", "fact 41", 5))
        # A fact added now is found by the very next search.
        store.facts.add(
            "t", "u", [NewFact(f"fact {size + 1}", "x", {}, embedder.embed([f"fact {size + 1}"])[0])]
        )
        assert search.search("t", "u", f"fact {size + 1}", 1)[0][0].text == f"fact {size + 1}"
        assert search.stages["load"] == 1, size  # every change above updated the cached index
        store.close()


def test_rows_are_found_by_id_whether_or_not_they_are_in_id_order() -> None:
    # Facts whose vectors arrive later are appended out of id order.
    for ids in ([2, 5, 9], [5, 2, 9]):
        index = UserIndex(np.array(ids, dtype=np.int64), np.eye(3, DIM, dtype=np.float32), {}, dense=True)
        where, found = index.positions(np.array([9, 2, 7], dtype=np.int64))
        assert found.tolist() == [True, True, False]
        assert [ids[i] for i in where[found]] == [9, 2]
        later = index.appended(np.array([4], dtype=np.int64), np.ones((1, DIM), dtype=np.float32))
        where, found = later.positions(np.array([4, 5], dtype=np.int64))
        assert found.all() and later.ids[where].tolist() == [4, 5]


def test_nearest_finds_the_most_similar_older_fact_of_a_large_user_through_the_coarse_stage(tmp_path) -> None:
    # What supersede compares a stated change with ("User switched to ..."): past EXACT_SCAN_ROWS
    # facts it reads the coarse projection's candidates, not every row, and finds what an exact
    # scan finds: the most similar fact older than the new one, never a kept turn.
    size = EXACT_SCAN_ROWS + 300
    embedder = TableEmbedder(size + 10)
    store = SqliteStorage(tmp_path / "nearest.db")
    texts = [f"fact {i}" for i in range(size)]
    ids = store.facts.add(
        "t", "u", [NewFact(t, "x", {}, v) for t, v in zip(texts, embedder.embed(texts), strict=True)]
    )
    # A kept turn with the very vector of fact 1234 (what was said, not a fact to replace).
    (turn,) = store.facts.add(
        "t", "u", [NewFact("fact 1234 as said", "x", {}, embedder.table[1234], event_type=KEPT_TURN)]
    )
    search = FactSearch(store, embedder, mode="semantic")
    search.search("t", "u", "fact 1", 1)  # caches the user's index, as a search before the write had
    search.indexes.cached("t", "u")._build.done.wait(30)
    rng = np.random.default_rng(9)
    for i in (0, 1234, 7777, size - 1):
        # A new fact close to fact i (cosine ~0.9), stored after every fact above.
        vector = embedder.table[i] + 0.45 * rng.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
        vector /= np.linalg.norm(vector)
        exact = np.asarray(search.indexes.cached("t", "u").matrix) @ vector
        found = search.nearest("t", "u", vector, before=turn + 1)
        assert found is not None and found[0] == ids[i], i
        assert abs(found[1] - float(exact[i])) < 1e-5 and float(exact[i]) == float(np.max(exact)), i
    # Only facts older than ``before`` count: fact 7777 is newer than itself.
    found = search.nearest("t", "u", embedder.table[7777], before=ids[7777])
    assert found is not None and found[0] != ids[7777] and found[0] < ids[7777]
    assert search.stages["nearest (coarse + exact rerank)"] == 5 and not search.stages["nearest (exact)"]
    store.close()


def test_nearest_skips_the_kept_turns_the_index_knows_and_a_fact_deleted_in_the_same_write(tmp_path) -> None:
    # The cached index says which rows are kept turns, so only the best other row is read; that
    # read still guards a fact the write removed before asking (its removal is not announced yet).
    embedder = TableEmbedder(10)
    store = SqliteStorage(tmp_path / "nearest-kinds.db")
    _turn, fact, other = store.facts.add(
        "t",
        "u",
        [
            NewFact("said", "x", {}, embedder.table[1], event_type=KEPT_TURN),
            NewFact("fact", "x", {}, 0.9 * embedder.table[1] + 0.1 * embedder.table[2]),
            NewFact("other", "x", {}, 0.6 * embedder.table[1] + 0.4 * embedder.table[3]),
        ],
    )
    search = FactSearch(store, embedder, mode="semantic")
    search.search("t", "u", "said", 1)  # caches the index with each row's kind
    probe = embedder.table[1]
    assert search.nearest("t", "u", probe, before=other + 1)[0] == fact  # type: ignore[index]
    with store.transaction():
        store.facts.delete("t", "u", [fact])
        found = search.nearest("t", "u", probe, before=other + 1)
    assert found is not None and found[0] == other
    store.close()


def test_a_long_scan_split_across_a_helper_scores_every_row_as_one_product_does() -> None:
    rng = np.random.default_rng(3)
    query = rng.standard_normal(DIM).astype(np.float32)
    with ThreadPoolExecutor(max_workers=1) as pool:
        for rows in (SPLIT_ROWS - 1, SPLIT_ROWS, 3 * SPLIT_ROWS + 1):
            matrix = rng.standard_normal((rows, DIM)).astype(np.float32)
            expected = matrix @ query
            for beside in (Beside(pool), Beside(None), None):
                got = scan(matrix, query, beside)
                assert got.shape == (rows,) and got.dtype == np.float32
                np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_the_8_bit_projection_ranks_rows_as_the_float_one_does() -> None:
    # The coarse scan of a large user reads the projection as 8-bit integers (a quarter of the
    # bytes): the rows it ranks best must be the ones the float projection ranks best.
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((5000, DIM)).astype(np.float32) * np.linspace(
        2.0, 0.2, DIM, dtype=np.float32
    )
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    basis = np.linalg.qr(rng.standard_normal((DIM, 16)))[0].astype(np.float32)
    exact = Projection(basis, None)
    eight = Projection.fitted(basis, vectors @ basis)
    assert eight.scale is not None and eight.rows(vectors).dtype == np.int8
    np.testing.assert_allclose(
        exact.scores(exact.rows(vectors), vectors[0], None),
        (vectors @ basis) @ (basis.T @ vectors[0]),
        rtol=1e-5,
        atol=1e-6,
    )
    overlaps = []
    for query in vectors[:50]:
        best = set(np.argsort(-exact.scores(exact.rows(vectors), query, None))[:50])
        found = set(np.argsort(-eight.scores(eight.rows(vectors), query, None))[:50])
        overlaps.append(len(best & found) / 50)
    assert np.mean(overlaps) >= 0.95
    # A row appended later, larger than any the projection was fitted on, clips instead of wrapping.
    assert eight.rows(vectors[:1] * 100).min() >= -127 and eight.rows(vectors[:1] * 100).max() <= 127
    assert not eight.scores(eight.rows(vectors), np.zeros(DIM, np.float32), None).any()


def test_a_search_reads_vectors_and_only_the_backfill_writes_them(tmp_path) -> None:
    # Facts stored with another embedder's vectors (an older release, another search mode) are
    # given this one's by the backfill, which a search asks; a search alone never writes.
    embedder = HashingEmbedder()
    store = SqliteStorage(tmp_path / "old.db")
    (cello,) = store.facts.add("t", "u", [NewFact("User plays the cello", "x", {}, np.ones(3, np.float32))])
    assert FactSearch(store, embedder).search("t", "u", "cello", 1) == []  # not searchable yet
    assert store.facts.index_rows("t", "u", embedder.dim).other_vectors == [cello]  # nothing written
    backfill = Backfill(store, embedder)
    try:
        search = FactSearch(store, embedder, backfill=backfill)
        assert [f.id for f, _ in search.search("t", "u", "cello", 1)] == [cello]
        assert store.facts.index_rows("t", "u", embedder.dim).other_vectors == []
        assert backfill.embedded == 1
    finally:
        backfill.close()
        store.close()
