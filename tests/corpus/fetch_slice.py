#!/usr/bin/env python3
"""Fetches a slice of the corpus: the .debs of tests/corpus/slice.tsv (about 40 MB of
Debian's ROCm packages, sid and bookworm), checked against their SHA-256, unpacked into the
corpus layout the oracle tests read ($CORPUS/debs/<suite>/, $CORPUS/<suite>-root/), and
marked as a slice ($CORPUS/SLICE).

The whole corpus (about 10 GB) is what a developer runs against; this slice is what CI can
fetch in a minute, so that the tests comparing rocm-audit with ld.so, nm, clang-offload-bundler
and cmake run there on real packages instead of skipping. A test whose packages the slice
does not hold skips as it does without a corpus.

A .deb the mirror no longer has (sid moves on) is left out and named; the others are
fetched. Exit status: 0 when at least one .deb of each suite is there, 1 otherwise.

Usage: fetch_slice.py CORPUS [MIRROR...]   (tried in order; default http://deb.debian.org/debian)
"""
import hashlib
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# The usr-merged layout of a current Debian root: a package's /lib files land in /usr/lib.
MERGED = ('bin', 'sbin', 'lib', 'lib64')


def read_slice(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            suite, package, version, sha256, size, pool_path = line.rstrip('\n').split('\t')
            rows.append((suite, package, version, sha256, int(size), pool_path))
    return rows


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


class MirrorDown(Exception):
    pass


def fetch(url, dest, sha256, size):
    """Downloads url to dest unless dest already has the expected bytes: "" when dest has
    them, else why not."""
    if os.path.isfile(dest) and os.path.getsize(dest) == size and sha256_of(dest) == sha256:
        return ''
    part = dest + '.part'
    try:
        with urllib.request.urlopen(url, timeout=30) as r, open(part, 'wb') as out:
            shutil.copyfileobj(r, out, 1 << 20)
    except urllib.error.HTTPError as e:  # the mirror answers, without this file
        return f'{url}: {e}'
    except (urllib.error.URLError, OSError) as e:  # the mirror does not answer: not asked again
        raise MirrorDown(f'{url}: {e}') from e
    if os.path.getsize(part) != size or sha256_of(part) != sha256:
        os.unlink(part)
        return f'{url}: not the locked bytes (size or SHA-256 differs)'
    os.rename(part, dest)
    return ''


def new_root(root):
    if os.path.lexists(root):
        shutil.rmtree(root)
    os.makedirs(os.path.join(root, 'usr'))
    for d in MERGED:
        os.makedirs(os.path.join(root, 'usr', d), exist_ok=True)
        os.symlink('usr/' + d, os.path.join(root, d))


def unpack(deb, root):
    # Through the merged directories' links, as dpkg installs on a usr-merged system.
    tar = subprocess.Popen(['tar', '-x', '--keep-directory-symlink', '-C', root], stdin=subprocess.PIPE)
    deb_rc = subprocess.call(['dpkg-deb', '--fsys-tarfile', deb], stdout=tar.stdin)
    tar.stdin.close()
    if tar.wait() != 0 or deb_rc != 0:
        raise SystemExit(f'fetch_slice: could not unpack {deb}')


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    corpus = sys.argv[1]
    mirrors = [m.rstrip('/') for m in sys.argv[2:]] or ['http://deb.debian.org/debian']
    rows = read_slice(os.path.join(HERE, 'slice.tsv'))
    have = {}
    down = set()  # mirrors that did not answer
    for suite, package, version, sha256, size, pool_path in rows:
        debs = os.path.join(corpus, 'debs', suite)
        os.makedirs(debs, exist_ok=True)
        dest = os.path.join(debs, os.path.basename(pool_path))
        why = []
        for m in [m for m in mirrors if m not in down]:
            try:
                why.append(fetch(m + '/' + pool_path, dest, sha256, size))
            except MirrorDown as e:
                why.append(str(e))
                down.add(m)
                continue
            if not why[-1]:
                have.setdefault(suite, []).append(dest)
                break
        else:
            reason = '; '.join(why) or 'no mirror answers'
            print(f'fetch_slice: left out {suite} {package} {version}: {reason}', file=sys.stderr)
    suites = sorted({r[0] for r in rows})
    if not any(have.get(suite) for suite in suites):
        # Nothing fetched (no network): no corpus at all, so every corpus test skips.
        shutil.rmtree(corpus, ignore_errors=True)
        print(f'fetch_slice: no .deb fetched; {corpus} removed', file=sys.stderr)
        return 1
    # What tells the tests this corpus is the slice: a test pinned to the whole corpus's
    # facts skips here as it does without a corpus, and the agreement tests lower their floors.
    with open(os.path.join(corpus, 'SLICE'), 'w') as f:
        f.write('tests/corpus/slice.tsv of rocm-audit: a slice of the corpus, not the whole\n')
    for suite in suites:
        root = os.path.join(corpus, suite + '-root')
        if not have.get(suite):  # a suite with nothing fetched has no root, as without a corpus
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(os.path.join(corpus, 'debs', suite), ignore_errors=True)
            continue
        new_root(root)
        for deb in have[suite]:
            unpack(deb, root)
        print(f'{root}: {len(have[suite])} of {sum(r[0] == suite for r in rows)} packages')
    return 0 if all(have.get(s) for s in suites) else 1


if __name__ == '__main__':
    sys.exit(main())
