"""A YAML file (the first document) as JSON on standard output, read by PyYAML (Debian:
python3-yaml): how scripts/test-image and Tests/CLITests/KubernetesJobTests read
deploy/kubernetes/job.yaml. Usage: python3 yaml_to_json.py FILE"""
import json
import sys

import yaml

with open(sys.argv[1], encoding="utf-8") as source:
    json.dump(yaml.safe_load(source), sys.stdout)
