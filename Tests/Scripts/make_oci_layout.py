#!/usr/bin/env python3
"""Writes a tiny OCI image layout by hand (no network, no container tool):

  make_oci_layout.py DIR TAG

one gzipped tar layer holding /hello.txt, an image config, a manifest, index.json tagged TAG.
"""
import gzip, hashlib, io, json, os, sys, tarfile

directory, tag = sys.argv[1:3]
blobs = os.path.join(directory, "blobs", "sha256")
os.makedirs(blobs, exist_ok=True)


def blob(data):
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(blobs, digest), "wb") as f:
        f.write(data)
    return "sha256:" + digest, len(data)


tar_bytes = io.BytesIO()
with tarfile.open(fileobj=tar_bytes, mode="w", format=tarfile.PAX_FORMAT) as archive:
    content = b"hello from ghlogin's test image\n"
    info = tarfile.TarInfo("hello.txt")
    info.size, info.mode, info.mtime = len(content), 0o644, 1700000000
    archive.addfile(info, io.BytesIO(content))
layer_tar = tar_bytes.getvalue()
layer = gzip.compress(layer_tar, mtime=0)
layer_digest, layer_size = blob(layer)
config = {
    "architecture": "amd64", "os": "linux", "created": "2023-11-14T22:13:20Z",
    "config": {"Cmd": ["/hello.txt"]},
    "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(layer_tar).hexdigest()]},
    "history": [{"created": "2023-11-14T22:13:20Z", "created_by": "make_oci_layout.py"}],
}
config_digest, config_size = blob(json.dumps(config).encode())
manifest = {
    "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
    "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config_digest, "size": config_size},
    "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer_digest, "size": layer_size}],
}
manifest_digest, manifest_size = blob(json.dumps(manifest).encode())
with open(os.path.join(directory, "oci-layout"), "w") as f:
    json.dump({"imageLayoutVersion": "1.0.0"}, f)
with open(os.path.join(directory, "index.json"), "w") as f:
    json.dump({"schemaVersion": 2, "manifests": [{
        "mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": manifest_digest, "size": manifest_size,
        "annotations": {"org.opencontainers.image.ref.name": tag}}]}, f)
