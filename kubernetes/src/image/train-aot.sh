#!/usr/bin/env bash
# The image's ahead-of-time cache (JEP 483/514), recorded as the gym4j launcher records its own: one training
# run that starts the example environment and stops. The run happens in the image itself (its layers unpacked,
# started under bubblewrap as its non-root user), so the cache matches the JRE and the jars, paths and
# modification times included, that the container will see, with the JVM options of the image's entrypoint.
# Usage: train-aot.sh IMAGE_TAR OUTPUT_DIR
# Without bubblewrap the image is built without a cache (the JVM then starts without one).
set -euo pipefail
TAR="$1"
OUT="$2"
rm -rf "$OUT"
mkdir -p "$OUT"
if ! command -v bwrap >/dev/null; then
  echo "train-aot: bubblewrap (bwrap) is not installed; the image gets no AOT cache" >&2
  exit 0
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/oci" "$WORK/root" "$WORK/out"
tar -xf "$TAR" -C "$WORK/oci"
digest() { grep -o '"digest":"sha256:[0-9a-f]*"' | sed 's/.*sha256:\([0-9a-f]*\)"/\1/'; }
MANIFEST="$WORK/oci/blobs/sha256/$(digest < "$WORK/oci/index.json" | sed -n 1p)"
CONFIG="$(tr -d '\n ' < "$MANIFEST" | grep -o '"config":{[^}]*}' | digest)"
for layer in $(tr -d '\n ' < "$MANIFEST" | digest); do
  [ "$layer" = "$CONFIG" ] || tar --warning=no-unknown-keyword -xzf "$WORK/oci/blobs/sha256/$layer" -C "$WORK/root"
done
chmod -R u+w "$WORK/root"
# the entrypoint's java and options, without its own -XX:AOTCache (the cache this run writes)
mapfile -t ENTRYPOINT < <(tr -d '\n' < "$WORK/oci/blobs/sha256/$CONFIG" | grep -o '"Entrypoint":\[[^]]*\]' \
  | sed 's/^"Entrypoint":\[//; s/\]$//' | grep -o '"[^"]*"' | sed 's/^"//; s/"$//' | grep -v '^-XX:AOTCache=')
[ "${ENTRYPOINT[-1]}" = dev.gym4j.cli.Main ] || { echo "train-aot: unexpected entrypoint ${ENTRYPOINT[*]}" >&2; exit 1; }
bwrap --bind "$WORK/root" / --bind "$WORK/out" /out --proc /proc --dev /dev --tmpfs /tmp --unshare-all \
  --unshare-user --uid 65532 --gid 65532 --die-with-parent --chdir /app --clearenv --setenv JAVA_HOME /opt/java \
  "${ENTRYPOINT[0]}" -XX:AOTCacheOutput=/out/gym4j.aot "${ENTRYPOINT[@]:1}" run --check ++head_server.port=0 \
  "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/config.yaml]" \
  +policy_base_url=http://127.0.0.1:9/v1 +policy_api_key=unused +policy_model_name=unused >"$WORK/train.log" 2>&1 \
  || { cat "$WORK/train.log" >&2; echo "train-aot: the training run failed" >&2; exit 1; }
mkdir -p "$OUT/app"
cp "$WORK/out/gym4j.aot" "$OUT/app/gym4j.aot"
