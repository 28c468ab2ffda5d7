//! The `nested` data set: lists, lists of structs, maps and nested structs with nulls at every
//! level.

use super::*;

#[rustfmt::skip]
pub(super) const FIRST_NAMES: &[&str] = &[
    "Ada", "Alan", "Barbara", "Claude", "Donald", "Edsger", "Frances", "Grace", "Hedy", "John",
    "Katherine", "Leslie", "Margaret", "Niklaus", "Radia", "Tim", "Xavier", "Zoë",
];
#[rustfmt::skip]
pub(super) const LAST_NAMES: &[&str] = &[
    "Lovelace", "Turing", "Liskov", "Shannon", "Knuth", "Dijkstra", "Allen", "Hopper", "Lamarr",
    "Backus", "Johnson", "Lamport", "Hamilton", "Wirth", "Perlman", "Berners-Lee", "Leroy",
    "Øresund",
];
#[rustfmt::skip]
pub(super) const CITIES: &[&str] = &[
    "Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Genève", "Helsinki",
    "Istanbul", "Jakarta", "Kyōto", "Lagos", "Montréal", "Nairobi", "Oslo", "São Paulo",
];
#[rustfmt::skip]
pub(super) const ATTRIBUTE_KEYS: &[&str] = &[
    "clicks", "views", "likes", "shares", "score", "rank", "level", "visits", "orders",
    "returns",
];

/// Probability `1/n` of each kind of null in `nested`.
pub(super) const NESTED_NULL_ONE_IN: u64 = 20;
pub(super) const NESTED_FIELD_NULL_ONE_IN: u64 = 10;

pub(super) fn item_field(dt: DataType) -> FieldRef {
    Arc::new(Field::new("item", dt, true))
}

pub(super) fn point_fields() -> Fields {
    Fields::from(vec![
        Field::new("x", DataType::Float64, false),
        Field::new("y", DataType::Float64, true),
        Field::new("label", DataType::Utf8, true),
    ])
}

pub(super) fn map_entries_field() -> FieldRef {
    let kv = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::Int64, true),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(kv), false))
}

pub(super) fn address_fields() -> Fields {
    Fields::from(vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("zip", DataType::Utf8, true),
    ])
}

pub(super) fn profile_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, true),
        Field::new("age", DataType::Int32, true),
        Field::new("address", DataType::Struct(address_fields()), true),
    ])
}

pub(super) fn nested_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("tags", DataType::List(item_field(DataType::Utf8)), true),
        Field::new(
            "points",
            DataType::List(item_field(DataType::Struct(point_fields()))),
            true,
        ),
        Field::new(
            "attributes",
            DataType::Map(map_entries_field(), false),
            true,
        ),
        Field::new("profile", DataType::Struct(profile_fields()), true),
    ]))
}

/// `tags: list<utf8>`.
pub(super) struct Tags {
    pub(super) lists: ListOffsets,
    pub(super) items: Str,
}

impl Tags {
    pub(super) fn with_capacity(n: usize) -> Self {
        Tags {
            lists: ListOffsets::with_capacity(n),
            items: Str::with_capacity(n * 3, n * 30),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(6) as usize } else { 0 };
        for _ in 0..len {
            let item = (!rng.one_in(NESTED_NULL_ONE_IN)).then(|| rng.pick(WORDS));
            self.items.push_opt(item);
        }
        self.lists.push(valid, len);
    }

    pub(super) fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.lists.finish()?;
        let items = self.items.finish()?;
        let list = ListArray::try_new(item_field(DataType::Utf8), offsets, items, validity)?;
        Ok(list.into())
    }
}

/// `points: list<struct<x, y, label>>`.
pub(super) struct Points {
    pub(super) lists: ListOffsets,
    pub(super) structs: Validity,
    pub(super) x: Prim<f64>,
    pub(super) y: Prim<f64>,
    pub(super) label: Str,
}

impl Points {
    pub(super) fn with_capacity(n: usize) -> Self {
        Points {
            lists: ListOffsets::with_capacity(n),
            structs: Validity::with_capacity(n * 2),
            x: Prim::with_capacity(n * 2),
            y: Prim::with_capacity(n * 2),
            label: Str::with_capacity(n * 2, n * 16),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(5) as usize } else { 0 };
        for _ in 0..len {
            self.structs.push(!rng.one_in(NESTED_NULL_ONE_IN));
            self.x.push(rng.unit() * 360.0 - 180.0);
            let y = rng.unit() * 180.0 - 90.0;
            self.y
                .push_opt((!rng.one_in(NESTED_NULL_ONE_IN)).then_some(y));
            let label = (!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then(|| rng.pick(CITIES));
            self.label.push_opt(label);
        }
        self.lists.push(valid, len);
    }

    pub(super) fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.lists.finish()?;
        let children = vec![self.x.finish()?, self.y.finish()?, self.label.finish()?];
        let len = self.structs.len();
        let items = StructArray::try_new(point_fields(), len, children, self.structs.finish()?)?;
        let field = item_field(DataType::Struct(point_fields()));
        Ok(ListArray::try_new(field, offsets, items.into(), validity)?.into())
    }
}

/// `attributes: map<utf8, int64>`.
pub(super) struct Attributes {
    pub(super) maps: ListOffsets,
    pub(super) keys: Str,
    pub(super) values: Prim<i64>,
}

impl Attributes {
    pub(super) fn with_capacity(n: usize) -> Self {
        Attributes {
            maps: ListOffsets::with_capacity(n),
            keys: Str::with_capacity(n * 2, n * 12),
            values: Prim::with_capacity(n * 2),
        }
    }

    /// Keys are consecutive entries of [`ATTRIBUTE_KEYS`] from a random start, so distinct.
    #[inline]
    pub(super) fn push(&mut self, rng: &mut Rng) {
        let valid = !rng.one_in(NESTED_NULL_ONE_IN);
        let len = if valid { rng.below(5) as usize } else { 0 };
        let start = rng.below(ATTRIBUTE_KEYS.len() as u64) as usize;
        for k in ATTRIBUTE_KEYS.iter().cycle().skip(start).take(len) {
            self.keys.push(k);
            let v = rng.range(-1_000_000, 1_000_000);
            self.values
                .push_opt((!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then_some(v));
        }
        self.maps.push(valid, len);
    }

    pub(super) fn finish(self) -> Result<Array> {
        let (offsets, validity) = self.maps.finish()?;
        let field = map_entries_field();
        let DataType::Struct(kv) = field.data_type().clone() else {
            return Err(Error::invalid("map entries must be a struct"));
        };
        let children = vec![self.keys.finish()?, self.values.finish()?];
        let len = children.first().map_or(0, Array::len);
        let entries = StructArray::try_new(kv, len, children, None)?;
        Ok(MapArray::try_new(field, false, offsets, entries, validity)?.into())
    }
}

/// `profile: struct<name, age, address: struct<city, zip>>`.
pub(super) struct Profile {
    pub(super) validity: Validity,
    pub(super) name: Str,
    pub(super) age: Prim<i32>,
    pub(super) address: Validity,
    pub(super) city: Str,
    pub(super) zip: Str,
    /// Reused for values assembled from parts (no allocation per value).
    pub(super) scratch: String,
}

impl Profile {
    pub(super) fn with_capacity(n: usize) -> Self {
        Profile {
            validity: Validity::with_capacity(n),
            name: Str::with_capacity(n, n * 14),
            age: Prim::with_capacity(n),
            address: Validity::with_capacity(n),
            city: Str::with_capacity(n, n * 8),
            zip: Str::with_capacity(n, n * 5),
            scratch: String::with_capacity(64),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, rng: &mut Rng) {
        self.validity.push(!rng.one_in(NESTED_NULL_ONE_IN));
        self.scratch.clear();
        self.scratch.push_str(rng.pick(FIRST_NAMES));
        self.scratch.push(' ');
        self.scratch.push_str(rng.pick(LAST_NAMES));
        let name = (!rng.one_in(NESTED_NULL_ONE_IN)).then_some(self.scratch.as_str());
        self.name.push_opt(name);
        let age = rng.range(18, 90) as i32;
        self.age
            .push_opt((!rng.one_in(NESTED_FIELD_NULL_ONE_IN)).then_some(age));
        self.address.push(!rng.one_in(NESTED_FIELD_NULL_ONE_IN));
        let city = (!rng.one_in(NESTED_NULL_ONE_IN)).then(|| rng.pick(CITIES));
        self.city.push_opt(city);
        self.scratch.clear();
        let zip = rng.below(100_000);
        for power in [10_000, 1_000, 100, 10, 1] {
            self.scratch
                .push(char::from(b'0' + (zip / power % 10) as u8));
        }
        let zip = (!rng.one_in(NESTED_NULL_ONE_IN)).then_some(self.scratch.as_str());
        self.zip.push_opt(zip);
    }

    pub(super) fn finish(self) -> Result<Array> {
        let len = self.validity.len();
        let address = StructArray::try_new(
            address_fields(),
            len,
            vec![self.city.finish()?, self.zip.finish()?],
            self.address.finish()?,
        )?;
        let children = vec![self.name.finish()?, self.age.finish()?, address.into()];
        let validity = self.validity.finish()?;
        Ok(StructArray::try_new(profile_fields(), len, children, validity)?.into())
    }
}

pub(super) fn nested_columns(key: u64, rows: RowRange) -> Result<Vec<Array>> {
    let n = rows.len;
    let mut ids = Prim::<i64>::with_capacity(n);
    let (mut tags, mut points) = (Tags::with_capacity(n), Points::with_capacity(n));
    let (mut attributes, mut profile) = (Attributes::with_capacity(n), Profile::with_capacity(n));
    for row in rows.iter() {
        let mut rng = Rng::for_row(key, row);
        ids.push(row as i64);
        tags.push(&mut rng);
        points.push(&mut rng);
        attributes.push(&mut rng);
        profile.push(&mut rng);
    }
    Ok(vec![
        ids.finish()?,
        tags.finish()?,
        points.finish()?,
        attributes.finish()?,
        profile.finish()?,
    ])
}
