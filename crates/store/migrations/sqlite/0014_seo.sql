-- SEO: the merchant's profile and lexicons, title categories with their keywords (merchant 0 = built in,
-- kept by an Administrator), the saved title library, collected search words, and benchmark accounts
-- with their public works and daily figures.
CREATE TABLE seo_profiles (
    merchant_id INTEGER PRIMARY KEY REFERENCES merchants(id),
    brand TEXT NOT NULL DEFAULT '',
    product TEXT NOT NULL DEFAULT '',
    region TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    category_id INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

CREATE TABLE seo_categories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 0: built in, seen by every merchant.
    merchant_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_categories_name UNIQUE (merchant_id, name)
);

CREATE TABLE seo_keywords (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    word TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_keywords_word UNIQUE (merchant_id, category_id, word)
);
CREATE INDEX seo_keywords_category ON seo_keywords(category_id, id);

CREATE TABLE seo_titles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    category_id INTEGER NOT NULL DEFAULT 0,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_titles_title UNIQUE (merchant_id, title)
);

CREATE TABLE seo_lexicon (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    kind TEXT NOT NULL,
    word TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_lexicon_word UNIQUE (merchant_id, kind, word)
);

CREATE TABLE seo_collected (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    platform TEXT NOT NULL,
    word TEXT NOT NULL,
    heat INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_collected_word UNIQUE (merchant_id, platform, word)
);

CREATE TABLE seo_benchmarks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    nickname TEXT NOT NULL DEFAULT '',
    avatar TEXT NOT NULL DEFAULT '',
    share_url TEXT NOT NULL DEFAULT '',
    followers INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    works INTEGER NOT NULL DEFAULT 0,
    last_sync_at INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    CONSTRAINT seo_benchmarks_account UNIQUE (merchant_id, platform, account_id)
);

CREATE TABLE seo_benchmark_works (
    benchmark_id INTEGER NOT NULL,
    work_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    create_time INTEGER NOT NULL,
    plays INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    comments INTEGER NOT NULL DEFAULT 0,
    shares INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (benchmark_id, work_id)
);

-- One row per benchmark and China day (YYYY-MM-DD), rewritten by each sync of that day.
CREATE TABLE seo_benchmark_days (
    benchmark_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    followers INTEGER NOT NULL DEFAULT 0,
    works INTEGER NOT NULL DEFAULT 0,
    plays INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (benchmark_id, day)
);

-- Built-in categories and their keywords (merchant 0).
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '餐饮美食', 'Food & drink', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '火锅', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '烧烤', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '奶茶', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '招牌菜', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '团购套餐', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '聚餐', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '小吃', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Hotpot', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Milk tea', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '餐饮美食';
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '美妆护肤', 'Beauty & skincare', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '面膜', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '精华', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '补水', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '美白', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '防晒', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '口红', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '敏感肌', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Serum', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Sunscreen', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '美妆护肤';
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '零售电商', 'Retail & e-commerce', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '新品', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '包邮', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '爆款', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '折扣', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '好物', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '直播间', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'New arrivals', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Free shipping', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '零售电商';
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '教育培训', 'Education & training', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '试听课', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '考试', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '提分', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '一对一', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '暑假班', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '网课', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Trial class', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Tutoring', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '教育培训';
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '房产家居', 'Real estate & home', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '装修', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '家具', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '收纳', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '学区房', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '样板间', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '全屋定制', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Renovation', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Furniture', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '房产家居';
INSERT INTO seo_categories (merchant_id, name, name_en, created_at) VALUES (0, '本地生活', 'Local services', 0);
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '探店', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '美甲', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '洗车', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '健身', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '亲子', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, '周末去哪', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Nail salon', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) SELECT 0, id, 'Car wash', 0 FROM seo_categories WHERE merchant_id = 0 AND name = '本地生活';
