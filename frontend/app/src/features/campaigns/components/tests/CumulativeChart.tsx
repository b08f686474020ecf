import "@mantine/charts/styles.css";
import { LineChart } from "@mantine/charts";
import { Text } from "@mantine/core";
import { formatInrExact } from "../../../../lib/format";
import { cumulativeSeries, type TestMetric } from "../../api/ab-tests";
import type { AbTest } from "../../api/ab-test-queries";

const dayFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});

/** A `YYYY-MM-DD` day as "17 Nov". */
function shortDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : dayFormat.format(d);
}

/** One colour per arm: the control, then variants B, C, D. */
const COLORS = ["gray.7", "blue.7", "teal.8", "grape.7"];

/**
 * The test's metric per arm, cumulative from the first day to each day: conversion rate in
 * percent, or revenue per visitor in rupees. Loaded on its own, only when a test is shown.
 */
export default function CumulativeChart({ test }: { test: AbTest }) {
  const metric = test.metric as TestMetric;
  const data = cumulativeSeries(test.variants, metric);
  const label =
    metric === "conversionRate" ? "Cumulative conversion rate" : "Cumulative revenue per visitor";
  if (data.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {label}: the chart starts with the first day a variant is seen.
      </Text>
    );
  const format = (v: number) => (metric === "conversionRate" ? `${v} %` : formatInrExact(v));
  return (
    <figure style={{ margin: 0 }}>
      <Text component="figcaption" fw={600} fz="sm" mb="xs">
        {label} per variant
      </Text>
      <LineChart
        h={260}
        data={data}
        dataKey="day"
        series={test.variants.map((v, i) => ({
          name: v.id,
          label: v.name,
          color: COLORS[i % COLORS.length]!,
        }))}
        valueFormatter={format}
        withLegend
        legendProps={{ verticalAlign: "bottom" }}
        curveType="linear"
        connectNulls
        xAxisProps={{ tickFormatter: shortDay }}
        yAxisProps={{ width: 70 }}
      />
    </figure>
  );
}
