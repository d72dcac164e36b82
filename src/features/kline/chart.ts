/**
 * The K-line chart: lightweight-charts 5 candlesticks with MA7 and MA25 lines (indicators.ts) and a volume
 * histogram underneath. This module is the
 * only importer of lightweight-charts and is itself imported only dynamically (KlinePage), so the library
 * lands in the lazily loaded `chart-*` chunk (vite.config.ts codeSplitting group) and never in /home's JS.
 * Prices reach the canvas as numbers: plotting needs them, and nothing here is money arithmetic.
 */
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type LogicalRange,
  type UTCTimestamp,
} from 'lightweight-charts';
import { formatDecimal, type Candle } from '../../../engine/index';
import { MOVING_AVERAGES, movingAverage, type Point } from './indicators';

export interface ChartTheme {
  dark: boolean;
}

export interface KlineChart {
  /** Replaces every candle (first load, paging back, a new interval). */
  setCandles(candles: readonly Candle[], decimals: number): void;
  /** The candle in progress, or the next one. */
  update(candle: Candle): void;
  setTheme(theme: ChartTheme): void;
  /** The member's language: the price axis and crosshair labels take its separators. */
  setLocale(locale: string): void;
  destroy(): void;
}

const COLORS = {
  light: { bg: '#ffffff', text: '#4b5563', grid: '#eef1f6', up: '#137333', down: '#b91c1c' },
  dark: { bg: '#131c2e', text: '#a3acba', grid: '#1b2740', up: '#4ade80', down: '#f87171' },
};

/** How close to the oldest loaded candle (in bars) scrolling asks for older ones. */
const PAGE_THRESHOLD = 20;

interface Converted {
  bars: CandlestickData<UTCTimestamp>[];
  volumes: HistogramData<UTCTimestamp>[];
}

/** Both series in one pass: each decimal string is read once (100k candles is the budgeted case). */
export function convert(list: readonly Candle[], upColor: string, downColor: string): Converted {
  const bars = new Array<CandlestickData<UTCTimestamp>>(list.length);
  const volumes = new Array<HistogramData<UTCTimestamp>>(list.length);
  for (let i = 0; i < list.length; i++) {
    const c = list[i] as Candle;
    const time = c.time as UTCTimestamp;
    const open = Number(c.open);
    const close = Number(c.close);
    bars[i] = { time, open, high: Number(c.high), low: Number(c.low), close };
    volumes[i] = { time, value: Number(c.volume), color: close >= open ? upColor : downColor };
  }
  return { bars, volumes };
}

/** Volume bars are the candle colours at half opacity. */
const translucent = (hex: string) => `${hex}80`;

export function createKlineChart(
  container: HTMLElement,
  options: { theme: ChartTheme; locale: string; onNeedOlder: () => void },
): KlineChart {
  let palette = options.theme.dark ? COLORS.dark : COLORS.light;
  let precision = -1;
  let locale = options.locale;
  // The axis and crosshair label prices grouped as every other figure is ("135,000.00", "135.000,00"): the
  // plotted number is written at the pair's places and handed to the money module's formatter.
  const localization = () => ({
    locale,
    priceFormatter: (price: number) =>
      formatDecimal(price.toFixed(Math.max(precision, 0)), { locale, decimals: Math.max(precision, 0) }),
  });
  const chart: IChartApi = createChart(container, {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: palette.bg },
      textColor: palette.text,
      attributionLogo: false,
    },
    grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
    localization: localization(),
    timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 4 },
    rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.25 } },
  });
  const candles: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, {
    upColor: palette.up,
    downColor: palette.down,
    wickUpColor: palette.up,
    wickDownColor: palette.down,
    borderVisible: false,
  });
  const volume: ISeriesApi<'Histogram'> = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const averages = MOVING_AVERAGES.map(({ period, color }) => ({
    period,
    series: chart.addSeries(LineSeries, {
      color,
      lineWidth: 1,
      lastValueVisible: false,
      priceLineVisible: false,
      crosshairMarkerVisible: false,
    }),
  }));
  // The closes the lines are drawn from; the largest period is all an update needs of them.
  let closes: Point[] = [];
  const drawAverages = (full: boolean) => {
    for (const { period, series } of averages) {
      const points = movingAverage(full ? closes : closes.slice(-period), period);
      if (full) series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      else {
        const last = points.at(-1);
        if (last) series.update({ time: last.time as UTCTimestamp, value: last.value });
      }
    }
  };

  const onRange = (range: LogicalRange | null) => {
    if (range && range.from < PAGE_THRESHOLD) options.onNeedOlder();
  };
  chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);

  return {
    setCandles(list, decimals) {
      if (decimals !== precision) {
        precision = decimals;
        candles.applyOptions({
          priceFormat: { type: 'price', precision: decimals, minMove: 1 / 10 ** decimals },
        });
        chart.applyOptions({ localization: localization() });
      }
      const { bars, volumes } = convert(list, translucent(palette.up), translucent(palette.down));
      candles.setData(bars);
      volume.setData(volumes);
      closes = bars.map((b) => ({ time: b.time, value: b.close }));
      drawAverages(true);
    },
    update(candle) {
      const { bars, volumes } = convert([candle], translucent(palette.up), translucent(palette.down));
      const [bar] = bars;
      const [vol] = volumes;
      if (bar) candles.update(bar);
      if (vol) volume.update(vol);
      if (bar) {
        const point = { time: bar.time, value: bar.close };
        if (closes.at(-1)?.time === bar.time) closes[closes.length - 1] = point;
        else if ((closes.at(-1)?.time ?? -1) < bar.time) closes.push(point);
        drawAverages(false);
      }
    },
    setTheme(theme) {
      palette = theme.dark ? COLORS.dark : COLORS.light;
      chart.applyOptions({
        layout: { background: { type: ColorType.Solid, color: palette.bg }, textColor: palette.text },
        grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      });
      candles.applyOptions({
        upColor: palette.up,
        downColor: palette.down,
        wickUpColor: palette.up,
        wickDownColor: palette.down,
      });
    },
    setLocale(next) {
      locale = next;
      chart.applyOptions({ localization: localization() });
    },
    destroy() {
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
      chart.remove();
    },
  };
}
