-- Where a benchmark account's figures were read from (domain::seo::DataSource: tikhub | sandbox).
-- '' for rows read before this column: the console shows them as of an unknown source until the next
-- sync (docs/seo-platforms.md).
ALTER TABLE seo_benchmarks ADD COLUMN source TEXT NOT NULL DEFAULT '';
