#!/usr/bin/env bash
# Deploys an overlay in the order the platform needs (docs/operations.md, "Kubernetes"):
#   1. everything but the servers: ConfigMaps, Services, policies, RabbitMQ, monitoring ... and the migration Jobs
#      (last release's Jobs are deleted first: a Job's pod template cannot be changed in place);
#   2. the secrets the services check at start-up, which no file in the repository holds: dev gets random ones
#      the first time; any other overlay must have them already (docs/operations.md, "Secrets"), or stops here;
#   3. wait until every migration Job has completed; stop here if one fails;
#   4. everything, which rolls the Deployments and the table-engine StatefulSet onto the new image;
#   5. wait for the rollouts.
# Usage: deploy/k8s/deploy.sh dev|prod        (KUBECTL=... to use another kubectl, e.g. with --context)
set -euo pipefail
overlay=${1:?usage: deploy/k8s/deploy.sh dev|prod}
here=$(cd "$(dirname "$0")" && pwd)
kubectl=${KUBECTL:-kubectl}
namespace=$(sed -n 's/^namespace: *//p' "$here/overlays/$overlay/kustomization.yaml")
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT

# ensure_secret NAME KEY...: the Secret NAME, created for dev with a random value per key (given to kubectl on
# stdin, so that no command line shows it).
ensure_secret() {
  local name=$1 key
  shift
  if $kubectl -n "$namespace" get secret "$name" -o name >/dev/null 2>&1; then
    return
  fi
  if [[ $overlay != dev ]]; then
    echo "Secret $name is missing in namespace $namespace: create it first (docs/operations.md, \"Secrets\");" \
      "the services were not rolled out" >&2
    exit 1
  fi
  {
    printf 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  labels:\n    app.kubernetes.io/part-of: platform\n' "$name"
    printf 'type: Opaque\nstringData:\n'
    for key in "$@"; do
      printf '  %s: "%s"\n' "$key" "$(head -c 36 /dev/urandom | base64 | tr '+/' '-_')"
    done
  } | $kubectl -n "$namespace" create -f -
}

$kubectl kustomize "$here/overlays/$overlay" >"$rendered"

$kubectl -n "$namespace" delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait=true
$kubectl apply -f "$rendered" -l 'app.kubernetes.io/component!=server'
ensure_secret platform-internal-token token
ensure_secret gateway-secrets jwt-secret admin-password
if ! $kubectl -n "$namespace" wait --for=condition=complete job -l app.kubernetes.io/component=migration \
    --timeout=15m; then
  $kubectl -n "$namespace" logs -l app.kubernetes.io/component=migration --all-containers --tail=50 >&2 || true
  echo "a migration did not complete: the services were not rolled out" >&2
  exit 1
fi

$kubectl apply -f "$rendered"
for workload in deployment/gateway deployment/tournament-director deployment/wallet deployment/rating \
    deployment/totalizator statefulset/table-engine; do
  $kubectl -n "$namespace" rollout status "$workload" --timeout=10m
done
