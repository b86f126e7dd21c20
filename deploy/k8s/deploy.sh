#!/usr/bin/env bash
# Deploys an overlay in the order the platform needs (docs/operations.md, "Kubernetes"):
#   1. everything but the servers: ConfigMaps, Services, policies, RabbitMQ, monitoring ... and the migration Jobs
#      (last release's Jobs are deleted first: a Job's pod template cannot be changed in place);
#   2. wait until every migration Job has completed; stop here if one fails;
#   3. everything, which rolls the Deployments and the table-engine StatefulSet onto the new image;
#   4. wait for the rollouts.
# Usage: deploy/k8s/deploy.sh dev|prod        (KUBECTL=... to use another kubectl, e.g. with --context)
set -euo pipefail
overlay=${1:?usage: deploy/k8s/deploy.sh dev|prod}
here=$(cd "$(dirname "$0")" && pwd)
kubectl=${KUBECTL:-kubectl}
namespace=$(sed -n 's/^namespace: *//p' "$here/overlays/$overlay/kustomization.yaml")
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT

$kubectl kustomize "$here/overlays/$overlay" >"$rendered"

$kubectl -n "$namespace" delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait=true
$kubectl apply -f "$rendered" -l 'app.kubernetes.io/component!=server'
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
