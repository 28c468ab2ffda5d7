//! The `lineitem` data set: its text pool, TPC-H value rules and column writers.

use super::*;

/// Words of the comment text (after TPC-H's grammar vocabulary).
#[rustfmt::skip]
pub(super) const WORDS: &[&str] = &[
    "furiously", "sly", "careful", "blithely", "quickly", "fluffily", "slyly", "ironic",
    "final", "regular", "express", "pending", "bold", "even", "special", "unusual", "silent",
    "daring", "idle", "ruthless", "deposits", "requests", "accounts", "packages", "foxes",
    "pinto", "beans", "instructions", "theodolites", "dependencies", "excuses", "platelets",
    "asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs", "frets",
    "dinos", "attainments", "somas", "tithes", "sheaves", "waters", "sleep", "wake", "are",
    "cajole", "haggle", "nag", "use", "boost", "affix", "detect", "integrate", "maintain",
    "nod", "was", "lose", "sublate", "solve", "thrash", "promise", "engage", "hinder", "print",
    "x-ray", "breach", "eat", "grow", "impress", "mold", "poach", "serve", "run", "dazzle",
    "snooze", "doze", "about", "above", "according", "to", "across", "after", "against",
    "along", "among", "around", "at", "atop", "before", "behind", "beneath", "beside",
    "besides", "between", "beyond", "by", "despite", "during", "except", "for", "from",
    "inside", "instead", "of", "into", "near", "on", "outside", "over", "past", "since",
    "through", "throughout", "toward", "under", "until", "up", "upon", "without", "with",
    "within", "the", "carefully", "never", "always", "sometimes", "ideas",
];

/// Length of the text pool comments are cut from (1 MiB: millions of distinct comments).
pub(super) const POOL_LEN: usize = 1 << 20;

/// Shortest `l_comment`.
pub const COMMENT_MIN: usize = 10;
/// Longest `l_comment` (TPC-H goes to 43; see the module documentation for why not here).
pub const COMMENT_MAX: usize = 25;

/// The fixed text comments are substrings of (ASCII words separated by spaces).
pub(super) fn text_pool() -> &'static str {
    static POOL: OnceLock<String> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = Rng(0x5445_5854_504f_4f4c);
        let mut text = String::with_capacity(POOL_LEN + 16);
        while text.len() < POOL_LEN {
            text.push_str(rng.pick(WORDS));
            text.push(' ');
        }
        text
    })
}

/// A random substring of the text pool of `min..=max` bytes.
#[inline]
pub(super) fn pool_text(rng: &mut Rng, min: usize, max: usize) -> &'static str {
    let pool = text_pool();
    let start = rng.below((pool.len() - max) as u64) as usize;
    let len = rng.range(min as i64, max as i64) as usize;
    pool.get(start..start + len).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// lineitem

pub(super) const SHIP_INSTRUCT: &[&str] = &[
    "DELIVER IN PERSON",
    "COLLECT COD",
    "NONE",
    "TAKE BACK RETURN",
];
pub(super) const SHIP_MODE: &[&str] = &["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"];

/// 1992-01-01 as days since the epoch.
pub(super) const START_DATE: i32 = 8035;
/// 1998-12-31 as days since the epoch.
pub(super) const END_DATE: i32 = 10591;
/// TPC-H's "current date" 1995-06-17, which decides return flags and line statuses.
pub(super) const CURRENT_DATE: i32 = 9298;
/// Parts and suppliers at scale factor 1.
pub(super) const PARTS: u64 = 200_000;
pub(super) const SUPPLIERS: i64 = 10_000;
/// Rows per block of orders (and the key range each block uses).
pub(super) const BLOCK_ROWS: u64 = 64;
/// One null in this many rows in `l_comment` and in `l_weight` (5%).
pub(super) const NULL_ONE_IN: u64 = 20;

pub(super) fn decimal_15_2() -> DataType {
    DataType::Decimal128 {
        precision: 15,
        scale: 2,
    }
}

pub(super) fn lineitem_schema() -> SchemaRef {
    let f = |name: &str, dt: DataType| Field::new(name, dt, false);
    Arc::new(Schema::new(vec![
        f("l_orderkey", DataType::Int64),
        f("l_partkey", DataType::Int64),
        f("l_suppkey", DataType::Int64),
        f("l_linenumber", DataType::Int32),
        f("l_quantity", decimal_15_2()),
        f("l_extendedprice", decimal_15_2()),
        f("l_discount", decimal_15_2()),
        f("l_tax", decimal_15_2()),
        f("l_returnflag", DataType::Utf8),
        f("l_linestatus", DataType::Utf8),
        f("l_shipdate", DataType::Date32),
        f("l_commitdate", DataType::Date32),
        f("l_receiptdate", DataType::Date32),
        f("l_shipinstruct", DataType::Utf8),
        f("l_shipmode", DataType::Utf8),
        Field::new("l_comment", DataType::Utf8, true),
        Field::new("l_weight", DataType::Float64, true),
    ]))
}

/// How 64 consecutive rows are split into orders: order `j` of block `b` has key
/// `64 b + j + 1`, so keys increase and about a quarter of them are used (as in TPC-H).
pub(super) struct OrderBlock {
    pub(super) block: u64,
    /// Order index (within the block) of each row.
    pub(super) order: [u8; BLOCK_ROWS as usize],
    /// Line number of each row within its order.
    pub(super) line: [u8; BLOCK_ROWS as usize],
    /// Order date of each order index.
    pub(super) order_date: [i32; BLOCK_ROWS as usize],
}

impl OrderBlock {
    pub(super) fn new(key: u64, block: u64) -> Self {
        let mut rng = Rng::for_row(key ^ 0x4f52_4445_5253, block);
        let mut b = OrderBlock {
            block,
            order: [0; BLOCK_ROWS as usize],
            line: [0; BLOCK_ROWS as usize],
            order_date: [0; BLOCK_ROWS as usize],
        };
        let mut rows = b.order.iter_mut().zip(b.line.iter_mut()).peekable();
        for (order, date) in b.order_date.iter_mut().enumerate() {
            if rows.peek().is_none() {
                break;
            }
            *date = rng.range(i64::from(START_DATE), i64::from(END_DATE - 151)) as i32;
            let lines = rng.range(1, 7) as u8;
            // Line numbers first: `zip` must not pull a row once the order is complete.
            for (line, (o, l)) in (1..=lines).zip(rows.by_ref()) {
                (*o, *l) = (order as u8, line);
            }
        }
        b
    }

    pub(super) fn of_row(&self, row: u64) -> (i64, i32, i32) {
        let i = (row % BLOCK_ROWS) as usize;
        let order = self.order.get(i).copied().unwrap_or_default();
        let line = self.line.get(i).copied().unwrap_or_default();
        let date = self.order_date.get(usize::from(order)).copied();
        let key = self.block * BLOCK_ROWS + u64::from(order) + 1;
        (key as i64, i32::from(line), date.unwrap_or(START_DATE))
    }
}

/// One generated `lineitem` row (decimals as hundredths).
pub(super) struct LineRow {
    pub(super) orderkey: i64,
    pub(super) partkey: i64,
    pub(super) suppkey: i64,
    pub(super) linenumber: i32,
    pub(super) quantity: i64,
    pub(super) extended_price: i64,
    pub(super) discount: i64,
    pub(super) tax: i64,
    pub(super) return_flag: &'static str,
    pub(super) line_status: &'static str,
    pub(super) ship_date: i32,
    pub(super) commit_date: i32,
    pub(super) receipt_date: i32,
    pub(super) ship_instruct: &'static str,
    pub(super) ship_mode: &'static str,
    pub(super) comment: Option<&'static str>,
    pub(super) weight: Option<f64>,
}

impl LineRow {
    pub(super) fn generate(key: u64, row: u64, block: &OrderBlock) -> Self {
        let mut rng = Rng::for_row(key, row);
        let (orderkey, linenumber, order_date) = block.of_row(row);
        let partkey = rng.below(PARTS) as i64 + 1;
        let supplier = rng.range(0, 3);
        let quantity = rng.range(1, 50);
        let ship_date = order_date + rng.range(1, 121) as i32;
        let commit_date = order_date + rng.range(30, 90) as i32;
        let receipt_date = ship_date + rng.range(1, 30) as i32;
        let return_flag = match (receipt_date <= CURRENT_DATE, rng.one_in(2)) {
            (false, _) => "N",
            (true, true) => "R",
            (true, false) => "A",
        };
        LineRow {
            orderkey,
            partkey,
            suppkey: supplier_of(partkey, supplier),
            linenumber,
            quantity,
            extended_price: quantity * retail_price(partkey),
            discount: rng.range(0, 10),
            tax: rng.range(0, 8),
            return_flag,
            line_status: if ship_date > CURRENT_DATE { "O" } else { "F" },
            ship_date,
            commit_date,
            receipt_date,
            ship_instruct: rng.pick(SHIP_INSTRUCT),
            ship_mode: rng.pick(SHIP_MODE),
            comment: (!rng.one_in(NULL_ONE_IN))
                .then(|| pool_text(&mut rng, COMMENT_MIN, COMMENT_MAX)),
            weight: (!rng.one_in(NULL_ONE_IN)).then(|| quantity as f64 * unit_weight(key, partkey)),
        }
    }
}

/// TPC-H's `P_RETAILPRICE` of a part, in hundredths.
pub(super) fn retail_price(partkey: i64) -> i64 {
    90_000 + (partkey / 10) % 20_001 + 100 * (partkey % 1_000)
}

/// TPC-H's `i`-th (0–3) supplier of a part.
pub(super) fn supplier_of(partkey: i64, i: i64) -> i64 {
    (partkey + i * (SUPPLIERS / 4 + (partkey - 1) / SUPPLIERS)) % SUPPLIERS + 1
}

/// A part's weight per unit in kg, 0.5–50 (a function of the part and the seed).
pub(super) fn unit_weight(key: u64, partkey: i64) -> f64 {
    0.5 + 49.5 * Rng::for_row(key ^ 0x5745_4947_4854, partkey as u64).unit()
}

/// Column writers of `lineitem`.
pub(super) struct LineitemColumns {
    pub(super) ints: [Prim<i64>; 3],
    pub(super) linenumber: Prim<i32>,
    pub(super) decimals: [Prim<I128>; 4],
    pub(super) flags: [Str; 2],
    pub(super) dates: [Prim<i32>; 3],
    pub(super) ship: [Str; 2],
    pub(super) comment: Str,
    pub(super) weight: Prim<f64>,
}

impl LineitemColumns {
    pub(super) fn with_capacity(n: usize) -> Self {
        LineitemColumns {
            ints: std::array::from_fn(|_| Prim::with_capacity(n)),
            linenumber: Prim::with_capacity(n),
            decimals: std::array::from_fn(|_| Prim::new(decimal_15_2(), n)),
            flags: std::array::from_fn(|_| Str::with_capacity(n, n)),
            dates: std::array::from_fn(|_| Prim::new(DataType::Date32, n)),
            ship: [Str::with_capacity(n, n * 12), Str::with_capacity(n, n * 5)],
            comment: Str::with_capacity(n, n * (COMMENT_MIN + COMMENT_MAX) / 2),
            weight: Prim::with_capacity(n),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, r: &LineRow) {
        let ints = [r.orderkey, r.partkey, r.suppkey];
        for (c, v) in self.ints.iter_mut().zip(ints) {
            c.push(v);
        }
        self.linenumber.push(r.linenumber);
        let decimals = [r.quantity * 100, r.extended_price, r.discount, r.tax];
        for (c, v) in self.decimals.iter_mut().zip(decimals) {
            c.push(I128::from_i128(i128::from(v)));
        }
        for (c, v) in self.flags.iter_mut().zip([r.return_flag, r.line_status]) {
            c.push(v);
        }
        let dates = [r.ship_date, r.commit_date, r.receipt_date];
        for (c, v) in self.dates.iter_mut().zip(dates) {
            c.push(v);
        }
        for (c, v) in self.ship.iter_mut().zip([r.ship_instruct, r.ship_mode]) {
            c.push(v);
        }
        self.comment.push_opt(r.comment);
        self.weight.push_opt(r.weight);
    }

    pub(super) fn finish(self) -> Result<Vec<Array>> {
        let mut columns = Vec::with_capacity(17);
        for c in self.ints {
            columns.push(c.finish()?);
        }
        columns.push(self.linenumber.finish()?);
        for c in self.decimals {
            columns.push(c.finish()?);
        }
        for c in self.flags {
            columns.push(c.finish()?);
        }
        for c in self.dates {
            columns.push(c.finish()?);
        }
        for c in self.ship.into_iter().chain([self.comment]) {
            columns.push(c.finish()?);
        }
        columns.push(self.weight.finish()?);
        Ok(columns)
    }
}

pub(super) fn lineitem_columns(key: u64, rows: RowRange) -> Result<Vec<Array>> {
    let mut columns = LineitemColumns::with_capacity(rows.len);
    let mut block = OrderBlock::new(key, rows.first / BLOCK_ROWS);
    for row in rows.iter() {
        if row / BLOCK_ROWS != block.block {
            block = OrderBlock::new(key, row / BLOCK_ROWS);
        }
        columns.push(&LineRow::generate(key, row, &block));
    }
    columns.finish()
}
