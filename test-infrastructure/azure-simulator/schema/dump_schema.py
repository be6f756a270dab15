#!/usr/bin/env python3
"""Dump the ARM wire schema carried by Microsoft's Python management SDKs as JSON.

For every model of azure-mgmt-network (msrest models: ``_attribute_map`` and ``_validation``) and
azure-mgmt-compute (TypeSpec models: ``rest_field`` names, annotations and visibility) this writes
the JSON key paths (``properties.frontendIPConfigurations``), their types (``str``, ``int``,
``[network.FrontendIPConfiguration]``, ``{str}``, ...) and which keys are read-only or required,
plus the api-versions the packages call for the operations the simulator serves.

Usage: dump_schema.py [OUTPUT.json]   (stdout when no file is given)
"""
import datetime
import enum
import importlib.metadata
import inspect
import json
import re
import sys
import typing

import azure.mgmt.compute.models as compute_models
import azure.mgmt.compute.operations._operations as compute_operations
import azure.mgmt.network.models as network_models
import azure.mgmt.network.operations._operations as network_operations
from azure.mgmt.compute._utils.model_base import Model as TypeSpecModel, _RestField


def msrest_models():
    """azure-mgmt-network: the attribute map is the wire schema (dotted keys are flattened paths)."""
    models = {}
    for name, cls in sorted(vars(network_models).items()):
        if not inspect.isclass(cls) or not hasattr(cls, "_attribute_map") or issubclass(cls, enum.Enum):
            continue
        validation = getattr(cls, "_validation", {}) or {}
        fields = {}
        for attribute, entry in cls._attribute_map.items():
            rules = validation.get(attribute, {})
            fields[entry["key"]] = {
                "type": qualify_msrest(entry["type"]),
                "readonly": bool(rules.get("readonly", False)),
                "required": bool(rules.get("required", False)),
                **({"constant": True} if rules.get("constant") else {}),
            }
        models["network." + name] = {"fields": fields}
    return models


def qualify_msrest(type_name):
    """Prefixes model names with ``network.``; keeps primitives (``str``, ``[str]``, ``{str}``...)."""
    primitives = {"str", "int", "long", "float", "bool", "object", "iso-8601", "rfc-1123", "duration", "date", "unix-time", "bytearray", "base64", "decimal"}
    if type_name.startswith("[") and type_name.endswith("]"):
        return "[" + qualify_msrest(type_name[1:-1]) + "]"
    if type_name.startswith("{") and type_name.endswith("}"):
        return "{" + qualify_msrest(type_name[1:-1]) + "}"
    if type_name in primitives:
        return type_name
    enum_class = getattr(network_models, type_name, None)
    if inspect.isclass(enum_class) and issubclass(enum_class, enum.Enum):
        return "str"
    return "network." + type_name


def typespec_type(annotation):
    """A Python annotation of a TypeSpec model field as a schema type string."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union:
        members = [member for member in args if member is not type(None)]
        if len(members) == 1:
            return typespec_type(members[0])
        kinds = {typespec_type(member) for member in members}
        return kinds.pop() if len(kinds) == 1 else ("str" if "str" in kinds else "object")
    if origin in (list, typing.List):
        return "[" + typespec_type(args[0]) + "]"
    if origin in (dict, typing.Dict):
        return "{" + typespec_type(args[1]) + "}"
    if origin is typing.Literal:
        return "str" if all(isinstance(value, str) for value in args) else "object"
    if annotation is str:
        return "str"
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    if annotation is datetime.datetime:
        return "iso-8601"
    if annotation is datetime.timedelta:
        return "duration"
    if annotation is bytes:
        return "bytearray"
    if inspect.isclass(annotation) and issubclass(annotation, enum.Enum):
        return "str"
    if inspect.isclass(annotation) and issubclass(annotation, TypeSpecModel):
        return "compute." + annotation.__name__
    return "object"


def is_optional(annotation):
    return typing.get_origin(annotation) is typing.Union and type(None) in typing.get_args(annotation)


def typespec_models():
    """azure-mgmt-compute: rest_field names are the wire keys; properties bags are nested models."""
    models = {}
    for name, cls in sorted(vars(compute_models).items()):
        if not inspect.isclass(cls) or not issubclass(cls, TypeSpecModel) or cls is TypeSpecModel:
            continue
        module = sys.modules[cls.__module__]
        hints = typing.get_type_hints(cls, globalns=vars(module), localns={"_models": compute_models})
        fields = {}
        for klass in reversed(cls.__mro__):
            for attribute, value in vars(klass).items():
                if attribute.startswith("_") or not isinstance(value, _RestField):
                    continue
                annotation = hints.get(attribute, typing.Any)
                visibility = value._visibility or []
                rest_name = value._rest_name_input or attribute
                fields[rest_name] = {
                    "type": typespec_type(annotation),
                    "readonly": visibility == ["read"],
                    "required": not is_optional(annotation) and annotation is not typing.Any,
                }
        models["compute." + name] = {"fields": fields}
    return models


def default_api_version(module, builder):
    source = inspect.getsource(getattr(module, builder))
    match = re.search(r'"api-version", "([0-9-]+(?:-preview)?)"', source)
    return match.group(1) if match else None


def main():
    schema = {
        "packages": {name: importlib.metadata.version(name) for name in ("azure-mgmt-network", "azure-mgmt-compute", "azure-core")},
        "apiVersions": {
            "Microsoft.Network": {builder: default_api_version(network_operations, builder) for builder in (
                "build_load_balancers_get_request",
                "build_public_ip_addresses_get_request",
                "build_network_interfaces_get_request",
                "build_network_security_groups_get_request",
                "build_route_tables_get_request",
                "build_virtual_networks_get_request",
                "build_subnets_get_request",
            )},
            "Microsoft.Network/scaleSetViews": {builder: default_api_version(network_operations, builder) for builder in (
                "build_network_interfaces_get_virtual_machine_scale_set_network_interface_request",
            )},
            "Microsoft.Compute": {builder: default_api_version(compute_operations, builder) for builder in (
                "build_virtual_machines_get_request",
                "build_virtual_machine_scale_sets_get_request",
                "build_virtual_machine_scale_set_vms_get_request",
                "build_availability_sets_get_request",
            )},
        },
        "models": {**msrest_models(), **typespec_models()},
    }
    text = json.dumps(schema, indent=1, sort_keys=True)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
