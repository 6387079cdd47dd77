"""A small stand-in for Pydantic v2's BaseModel, for the shims only (standard library only).

It behaves the way hook code uses payloads and decisions: attribute access,
``model_copy(update=...)`` (shallow, no validation -- like Pydantic), ``model_dump()``,
``model_construct()``, ``model_validate()``, equality and a Pydantic-like repr.
Construction checks required fields, simple types and ``extra="forbid"``, and raises
``ValidationError`` (a ValueError, like Pydantic's).
"""
import copy
import json
from typing import Any, Callable, Dict, Optional



class ValidationError(ValueError):
    """Raised when a shim model does not validate (mirrors pydantic.ValidationError)."""

    def __init__(self, title: str, errors: list):
        self.title = title
        self._errors = errors
        lines = [f"{len(errors)} validation error{'s' if len(errors) != 1 else ''} for {title}"]
        for e in errors:  # Pydantic's layout: the location line only for field errors
            loc = ".".join(str(p) for p in e.get("loc", ()))
            if loc:
                lines.append(loc)
            value = e.get("input")
            shown = repr(value)
            shown = shown if len(shown) <= 200 else shown[:200] + "..."
            lines.append(f"  {e['msg']} [type={e['type']}, input_value={shown}, input_type={type(value).__name__}]")
        super().__init__("\n".join(lines))

    def errors(self) -> list:
        return list(self._errors)


class _Undefined:
    """Pydantic's ``PydanticUndefined``: the default of a required field."""

    def __repr__(self) -> str:
        return "PydanticUndefined"

    def __reduce__(self) -> str:
        return "_MISSING"


_MISSING = _Undefined()


class ShimField:
    """A field, shaped as pydantic v2's ``FieldInfo`` where hook tests look at it."""

    __slots__ = ("name", "python_type", "default", "convert", "default_factory", "description", "alias",
                 "title", "json_schema_extra", "frozen")

    def __init__(self, name: str, python_type: str = "Any", default: Any = _MISSING,
                 convert: Optional[Callable[[Any], Any]] = None):
        self.name = name
        self.python_type = python_type
        self.default = default
        self.convert = convert
        self.default_factory = None
        self.description = None
        self.alias = None
        self.title = None
        self.json_schema_extra = None
        self.frozen = None

    def is_required(self) -> bool:
        return self.default is _MISSING

    @property
    def annotation(self) -> Any:
        return annotation_of(self.python_type)

    def get_default(self, *, call_default_factory: bool = False, validated_data: Any = None) -> Any:
        return self.default

    def make_default(self) -> Any:
        return copy.deepcopy(self.default)

    def __repr__(self) -> str:
        shown = getattr(self.annotation, "__name__", None) or repr(self.annotation).replace("typing.", "")
        tail = "required=True" if self.is_required() else f"default={self.default!r}"
        return f"FieldInfo(annotation={shown}, {tail})"


_ANNOTATION_NAMES: Dict[str, Any] = {"str": str, "int": int, "float": float, "bool": bool, "dict": dict,
                                     "list": list, "Any": Any, "None": type(None)}


def annotation_of(python_type: str) -> Any:
    """The catalogue's annotation text ("str | None", "list[dict]", "Literal['a', 'b']") as a typing object."""
    import typing
    alternatives = [t.strip() for t in _split_union(python_type)]
    parts = []
    for alt in alternatives:
        base, _, inner = alt.partition("[")
        inner = inner[:-1] if inner.endswith("]") else inner
        if base == "Literal":
            parts.append(typing.Literal[tuple(c.strip().strip("'\"") for c in inner.split(","))])
        elif base in ("list", "dict") and inner:
            args = tuple(annotation_of(a) for a in inner.split(","))
            parts.append(typing.List[args[0]] if base == "list" else typing.Dict[args])  # type: ignore[index]
        elif base in _ANNOTATION_NAMES:
            parts.append(_ANNOTATION_NAMES[base])
        else:
            parts.append(_NAMED_MODELS.get(base, Any))
    return parts[0] if len(parts) == 1 else typing.Union[tuple(parts)]  # type: ignore[return-value]


def _split_union(python_type: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in python_type:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


_JSON_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "dict": "object",
               "list": "array", "None": "null"}


def _schema_of(python_type: str, defs: Dict[str, Any]) -> Dict[str, Any]:
    alternatives = [t.strip() for t in _split_union(python_type)]
    options = []
    for alt in alternatives:
        base, _, inner = alt.partition("[")
        inner = inner[:-1] if inner.endswith("]") else inner
        if base == "Literal":
            choices = [c.strip().strip("'\"") for c in inner.split(",")]
            options.append({"enum": choices, "type": "string"})
        elif base == "list":
            options.append({"type": "array", "items": _schema_of(inner, defs) if inner else {}})
        elif base == "dict":
            options.append({"type": "object", "additionalProperties": True})
        elif base in _JSON_TYPES:
            options.append({"type": _JSON_TYPES[base]})
        elif base in _NAMED_MODELS:
            defs[base] = _NAMED_MODELS[base].model_json_schema()
            options.append({"$ref": f"#/$defs/{base}"})
        else:
            options.append({})
    return options[0] if len(options) == 1 else {"anyOf": options}


_SIMPLE_TYPES = {
    "str": (str,),
    "bool": (bool,),
    "int": (int,),
    "float": (int, float),
    "dict": (dict,),
    "list": (list,),
}


def _type_ok(python_type: str, value: Any) -> bool:
    """Checks the simple annotations of the catalogue ("str | None", "list[dict]"); others pass."""
    alternatives = [t.strip() for t in python_type.split("|")]
    if value is None:
        return "None" in alternatives or "Any" in alternatives
    for alt in alternatives:
        if alt == "None":  # only None matches it, handled above
            continue
        base = alt.split("[", 1)[0]
        if base == "Literal":
            inner = alt[len("Literal["):-1]
            choices = [c.strip().strip("'\"") for c in inner.split(",")]
            if isinstance(value, str) and value in choices:
                return True
            continue
        kinds = _SIMPLE_TYPES.get(base)
        if kinds is None:
            return True
        if base in ("int", "float") and isinstance(value, bool):
            continue
        if isinstance(value, kinds):
            return True
    return False


def _dump(value: Any, mode: str) -> Any:
    if isinstance(value, ShimModel):
        return value.model_dump(mode=mode)
    if isinstance(value, dict):
        return {k: _dump(v, mode) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_dump(v, mode) for v in value]
        return items if mode == "json" or isinstance(value, list) else tuple(items)
    return value


class ShimModel:
    """Base of every shim payload/decision. Subclasses set ``model_fields``."""

    __hooksmith_shim__ = True
    model_fields: Dict[str, ShimField] = {}
    model_config: Dict[str, Any] = {"extra": "ignore"}
    __hash__ = None  # type: ignore[assignment]  # unhashable, like a non-frozen Pydantic model

    def __init__(self, **data: Any):
        cls = type(self)
        errors = []
        values: Dict[str, Any] = {}
        for name, f in cls.model_fields.items():
            if name in data:
                v = data[name]
                if f.convert is not None:
                    try:
                        v = f.convert(v)
                    except (TypeError, ValueError) as e:
                        errors.append({"type": "value_error", "loc": (name,), "msg": str(e), "input": v})
                        continue
                if not _type_ok(f.python_type, v):
                    errors.append({"type": "type_error", "loc": (name,), "msg": f"Input should be {f.python_type}", "input": v})
                values[name] = v
            elif f.is_required():
                errors.append({"type": "missing", "loc": (name,), "msg": "Field required", "input": data})
            else:
                values[name] = f.make_default()
        if cls.model_config.get("extra") == "forbid":
            for key in data:
                if key not in cls.model_fields:
                    errors.append({"type": "extra_forbidden", "loc": (key,), "msg": "Extra inputs are not permitted", "input": data[key]})
        if errors:
            raise ValidationError(cls.__name__, errors)
        object.__setattr__(self, "__dict__", values)
        object.__setattr__(self, "__pydantic_fields_set__", set(k for k in data if k in cls.model_fields))
        self.model_post_init(None)

    def model_post_init(self, _context: Any) -> None:
        """Cross-field rules of subclasses (Cayu decisions) run here."""

    def __setattr__(self, name: str, value: Any) -> None:
        if type(self).model_config.get("frozen") and not name.startswith("_"):
            raise ValidationError(type(self).__name__, [{"type": "frozen_instance", "loc": (name,),
                                                         "msg": "Instance is frozen", "input": value}])
        if name not in type(self).model_fields and not name.startswith("_"):
            raise ValueError(f'"{type(self).__name__}" object has no field "{name}"')
        self.__dict__[name] = value

    # -- Pydantic v2 API used by hook code ------------------------------------------------
    @classmethod
    def model_construct(cls, _fields_set: Optional[set] = None, **values: Any) -> "ShimModel":
        obj = cls.__new__(cls)
        data = {n: (values[n] if n in values else (None if f.is_required() else f.make_default()))
                for n, f in cls.model_fields.items()}
        object.__setattr__(obj, "__dict__", data)
        object.__setattr__(obj, "__pydantic_fields_set__", set(values) if _fields_set is None else set(_fields_set))
        return obj

    @classmethod
    def model_validate(cls, obj: Any, *, strict: Optional[bool] = None, context: Any = None) -> "ShimModel":
        if isinstance(obj, cls):
            return obj
        if isinstance(obj, ShimModel):
            obj = obj.model_dump()
        if not isinstance(obj, dict):
            raise ValidationError(cls.__name__, [{"type": "model_type", "loc": (), "msg": f"Input should be a valid dictionary or instance of {cls.__name__}", "input": obj}])
        return cls(**obj)

    @classmethod
    def model_validate_json(cls, json_data: Any, **_kw: Any) -> "ShimModel":
        return cls.model_validate(json.loads(json_data))

    def model_copy(self, *, update: Optional[Dict[str, Any]] = None, deep: bool = False) -> "ShimModel":
        cls = type(self)
        new = cls.__new__(cls)
        data = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        fields_set = set(self.__pydantic_fields_set__)
        if update:
            data.update(update)  # like Pydantic: no validation of updated values
            fields_set.update(update)
        object.__setattr__(new, "__dict__", data)
        object.__setattr__(new, "__pydantic_fields_set__", fields_set)
        return new

    def model_dump(self, *, mode: str = "python", include: Any = None, exclude: Any = None,
                   by_alias: bool = False, exclude_unset: bool = False, exclude_defaults: bool = False,
                   exclude_none: bool = False, **_kw: Any) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for name, f in type(self).model_fields.items():
            if include is not None and name not in include:
                continue
            if exclude is not None and name in exclude:
                continue
            if exclude_unset and name not in self.__pydantic_fields_set__:
                continue
            value = self.__dict__.get(name)
            if exclude_none and value is None:
                continue
            if exclude_defaults and not f.is_required() and value == f.default:
                continue
            out[name] = _dump(value, mode)
        return out

    def model_dump_json(self, *, indent: Optional[int] = None, **kw: Any) -> str:
        return json.dumps(self.model_dump(mode="json", **kw), indent=indent)

    @classmethod
    def model_json_schema(cls, *_args: Any, **_kw: Any) -> Dict[str, Any]:
        """Pydantic's JSON Schema layout: title, type, properties with titles, required, $defs."""
        defs: Dict[str, Any] = {}
        props: Dict[str, Any] = {}
        for name, f in cls.model_fields.items():
            prop = {**_schema_of(f.python_type, defs), "title": name.replace("_", " ").title()}
            if not f.is_required():
                prop["default"] = _dump(f.default, "json")
            props[name] = prop
        schema: Dict[str, Any] = {"properties": props, "title": cls.__name__, "type": "object"}
        required = [n for n, f in cls.model_fields.items() if f.is_required()]
        if required:
            schema["required"] = required
        if cls.model_config.get("extra") == "forbid":
            schema["additionalProperties"] = False
        if cls.__doc__:
            schema["description"] = cls.__doc__.strip()
        if defs:
            schema["$defs"] = defs
        return schema

    @property
    def model_fields_set(self) -> set:
        return set(self.__pydantic_fields_set__)

    # Pydantic v1 spellings some code still uses.
    def dict(self, **kw: Any) -> Dict[str, Any]:
        return self.model_dump(**kw)

    def copy(self, *, update: Optional[Dict[str, Any]] = None, deep: bool = False) -> "ShimModel":
        return self.model_copy(update=update, deep=deep)

    def __eq__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        names = type(self).model_fields
        return all(self.__dict__.get(n) == other.__dict__.get(n) for n in names)

    def __iter__(self):
        for name in type(self).model_fields:
            yield name, self.__dict__.get(name)

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={self.__dict__.get(n)!r}" for n in type(self).model_fields)
        return f"{type(self).__name__}({body})"

    def __repr_args__(self):
        return list(iter(self))


# Models a field's annotation may name ("ChannelInfo"); shims register theirs.
_NAMED_MODELS: Dict[str, Any] = {}


def register_model(cls: type) -> type:
    _NAMED_MODELS[cls.__name__] = cls
    return cls


def define_model(name: str, fields: list, module: str, doc: str = "", base: type = ShimModel,
                 config: Optional[Dict[str, Any]] = None, namespace: Optional[Dict[str, Any]] = None) -> type:
    """Builds a ShimModel subclass from ShimField objects."""
    ns: Dict[str, Any] = dict(namespace or {})
    ns.update({"model_fields": {f.name: f for f in fields}, "__module__": module, "__doc__": doc or None})
    if config is not None:
        ns["model_config"] = config
    return type(name, (base,), ns)
MISSING = _MISSING
