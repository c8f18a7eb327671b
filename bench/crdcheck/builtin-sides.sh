#!/bin/sh
# builtin-sides.sh: crdcheck, kubeconform and kubectl-validate side by side
# on objects of built-in kinds, against the API server's own verdicts
# (issue 32).
#
#   sh bench/crdcheck/builtin-sides.sh [WORKDIR]
#
# 1. builtin/oracle's TestWriteSides writes the inputs: the built-in
#    objects of the oracle comparison and every fifth of their mutations,
#    one JSON file each, with the verdict of Kubernetes 1.37's own code on
#    each (a create under strict field validation).
# 2. crdcheck is built from this repository; kubeconform v0.8.0 and
#    kubectl-validate v0.0.4 are installed from the Go module proxy (a
#    tool that does not install is reported and left out).
# 3. Each tool runs once over the directory, strict:
#      crdcheck -strict -o json
#      kubeconform -strict -verbose -output json, with the schemas of
#        `crdcheck schema -builtin` (its default schemas are downloaded from
#        GitHub, out of this machine's reach)
#      kubectl-validate --version 1.30 --output json (1.30: the newest
#        release whose schemas v0.0.4 embeds; newer ones are downloaded)
#    under /usr/bin/time -v (wall time, CPU time, peak resident memory).
# 4. Per file: a refusal the API server makes too is found, one it does not
#    make is a false refusal; files a tool cannot check (no schema) are
#    counted apart.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work/bin"
echo "work directory: $work"

if [ ! -f "$work/sides/verdicts.json" ]; then
	SIDES_DIR="$work/sides" go -C "$repo/builtin/oracle" test -count=1 -run 'TestWriteSides$' . >/dev/null
fi
go -C "$repo" build -o "$work/bin/crdcheck" ./cmd/crdcheck
# (kept from an earlier run in the same WORKDIR)
[ -x "$work/bin/kubeconform" ] || GOBIN="$work/bin" GOFLAGS=-mod=mod go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0 ||
	echo "kubeconform does not install: left out"
[ -x "$work/bin/kubectl-validate" ] || GOBIN="$work/bin" GOFLAGS=-mod=mod go install sigs.k8s.io/kubectl-validate@v0.0.4 ||
	echo "kubectl-validate does not install: left out"
rm -rf "$work/schemas" && mkdir -p "$work/schemas"
"$work/bin/crdcheck" schema -builtin -d "$work/schemas" >/dev/null

objects="$work/sides/objects"
run() { # name, command...
	name=$1
	shift
	/usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
}
run crdcheck "$work/bin/crdcheck" -strict -o json "$objects"
if [ -x "$work/bin/kubeconform" ]; then
	run kubeconform "$work/bin/kubeconform" -strict -verbose -output json \
		-schema-location "$work/schemas/{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json" "$objects"
fi
if [ -x "$work/bin/kubectl-validate" ]; then
	run kubectl-validate "$work/bin/kubectl-validate" --version 1.30 --output json "$objects"
fi

python3 - "$work" <<'EOF'
import json, os, re, sys
work = sys.argv[1]
verdicts = json.load(open(os.path.join(work, "sides", "verdicts.json")))
refused_api = sum(verdicts.values())

def crdcheck():
    rep = json.load(open(os.path.join(work, "crdcheck.out")))
    out = {}
    for o in rep.get("objects", []):
        f = os.path.basename(o["file"])
        out[f] = {"rejected": True, "accepted": False}.get(o["status"])
    return out

def kubeconform():
    rep = json.load(open(os.path.join(work, "kubeconform.out")))
    out = {}
    for r in rep.get("resources", []):
        f = os.path.basename(r["filename"])
        out[f] = {"invalid": True, "error": None, "valid": False, "skipped": None}[r["status"].replace("status", "").lower()]
        if r["status"] == "statusError" and "could not find schema" not in r.get("msg", ""):
            out[f] = True  # a decoding error of the document
    return out

def kubectl_validate():
    # file -> list of Status objects: Success, or Failure with a message
    rep = json.load(open(os.path.join(work, "kubectl-validate.out")))
    out = {}
    for path, statuses in rep.items():
        f = os.path.basename(path)
        fails = [x for x in statuses if x.get("status") != "Success"]
        if not fails:
            out[f] = False
        elif any("failed to retrieve validator" in x.get("message", "") or "not recognized" in x.get("message", "") for x in fails):
            out[f] = None  # no schema for the kind in the release
        else:
            out[f] = True
    return out

def resources(name):
    t = open(os.path.join(work, name + ".time")).read()
    get = lambda k: re.search(re.escape(k) + r":\s*(.*)", t).group(1)
    wall = get("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    parts = [float(p) for p in wall.split(":")]
    secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    cpu = float(get("User time (seconds)")) + float(get("System time (seconds)"))
    return secs, cpu, int(get("Maximum resident set size (kbytes)")) / 1024

print(f"{len(verdicts)} objects, the API server refuses {refused_api} (strict create, Kubernetes 1.37)")
print(f"{'tool':18} {'checked':>8} {'refusals found':>16} {'false refusals':>15} {'wall s':>8} {'CPU s':>7} {'peak MB':>8}")
for name, read in [("crdcheck", crdcheck), ("kubeconform", kubeconform), ("kubectl-validate", kubectl_validate)]:
    if not os.path.exists(os.path.join(work, name + ".out")):
        print(f"{name:18} not installed")
        continue
    try:
        got = read()
    except Exception as e:
        print(f"{name:18} output not read: {e}")
        continue
    checked = {f: v for f, v in got.items() if v is not None and f in verdicts}
    api_refused_checked = sum(1 for f in checked if verdicts[f])
    found = sum(1 for f, v in checked.items() if v and verdicts[f])
    false = sorted(f for f, v in checked.items() if v and not verdicts[f])
    wall, cpu, mem = resources(name)
    share = 100 * found / refused_api if refused_api else 0
    print(f"{name:18} {len(checked):8} {found:7} ({share:5.1f}%) {len(false):15} {wall:8.2f} {cpu:7.2f} {mem:8.1f}")
    if false:
        print(f"{'':18} false refusals, first: {', '.join(false[:5])}")
EOF
