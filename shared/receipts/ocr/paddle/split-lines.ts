import type { PreparedImage } from '../prepare-image.js';
import { openCv } from './open-cv.js';

type Point = [number, number];

/** A text line found by the detector: its four corners in the prepared image, clockwise from top left, and its RGB pixels straightened. */
export interface DetectedLine {
  corners: Point[];
  crop: { data: Uint8Array; width: number; height: number };
}

/** The detector's map, one byte a pixel: 255 where it found text. */
export interface TextMap {
  data: Uint8Array;
  width: number;
  height: number;
}

interface RotatedRect {
  center: { x: number; y: number };
  size: { width: number; height: number };
  angle: number;
}

/** A region thinner than this (in the map's pixels) is a speck, not a line. */
const MIN_SIDE = 3;
/** PaddleOCR's DB post-processing grows each region by its area × 1.5 / its perimeter: the map marks a line's core only. */
const UNCLIP_RATIO = 1.5;

/**
 * The text lines of the detector's map, cut straightened out of the full-size image. The algorithm
 * is @gutenye/ocr-common's splitIntoLineImages (MIT, after PaddleOCR's DB post-processing); ours
 * makes the image an OpenCV matrix once per read rather than once per line, copies each crop out of
 * OpenCV's WebAssembly heap (a view into it is cut off when the heap grows), and frees every matrix
 * it makes (theirs leaked four a line, growing the heap and the process by hundreds of MB).
 */
export function splitLines(map: TextMap, image: PreparedImage): DetectedLine[] {
  const cv = openCv();
  const mask = new cv.Mat(map.height, map.width, cv.CV_8UC1);
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  const source = new cv.Mat(image.height, image.width, cv.CV_8UC3);
  try {
    mask.data.set(map.data);
    source.data.set(image.pixels);
    cv.findContours(mask, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    const lines: DetectedLine[] = [];
    for (let index = 0; index < contours.size(); index += 1) {
      const contour = contours.get(index);
      let region: RotatedRect;
      try {
        region = cv.minAreaRect(contour) as RotatedRect;
      } finally {
        contour.delete();
      }
      const corners = lineCorners(region, image.width / map.width, image.height / map.height, image);
      if (corners) lines.push({ corners, crop: straightened(source, corners) });
    }
    return lines;
  } finally {
    mask.delete();
    contours.delete();
    hierarchy.delete();
    source.delete();
  }
}

/**
 * The region grown as PaddleOCR unclips it, scaled to the image and kept inside it. Their offset of
 * the rectangle with round joins has for its smallest enclosing rectangle the same one grown by the
 * offset's distance on every side, which is computed here directly.
 */
function lineCorners(
  region: RotatedRect,
  scaleX: number,
  scaleY: number,
  bounds: { width: number; height: number },
): Point[] | undefined {
  const { width, height } = region.size;
  if (Math.min(width, height) < MIN_SIDE) return undefined;
  const distance = (width * height * UNCLIP_RATIO) / (2 * (width + height));
  const grown = { ...region, size: { width: width + 2 * distance, height: height + 2 * distance } };
  if (Math.min(grown.size.width, grown.size.height) < MIN_SIDE + 2) return undefined;
  const clamp = (value: number, max: number) => Math.max(0, Math.min(Math.round(value), max));
  const corners = clockwise(cornersOf(grown)).map(([x, y]): Point => [
    clamp(x * scaleX, bounds.width),
    clamp(y * scaleY, bounds.height),
  ]);
  const [topLeft, topRight, , bottomLeft] = corners as [Point, Point, Point, Point];
  if (Math.trunc(distanceBetween(topLeft, topRight)) <= 3 || Math.trunc(distanceBetween(topLeft, bottomLeft)) <= 3)
    return undefined;
  return corners;
}

function cornersOf({ center, size, angle }: RotatedRect): Point[] {
  const cos = Math.cos((angle * Math.PI) / 180);
  const sin = Math.sin((angle * Math.PI) / 180);
  const dx = size.width / 2;
  const dy = size.height / 2;
  return [
    [center.x - dx * cos + dy * sin, center.y - dx * sin - dy * cos],
    [center.x + dx * cos + dy * sin, center.y + dx * sin - dy * cos],
    [center.x + dx * cos - dy * sin, center.y + dx * sin + dy * cos],
    [center.x - dx * cos - dy * sin, center.y - dx * sin + dy * cos],
  ];
}

/** Top left, top right, bottom right, bottom left: of the two leftmost corners the higher is the top. */
function clockwise(corners: Point[]): Point[] {
  const [a, b, c, d] = [...corners].sort((first, second) => first[0] - second[0]) as [Point, Point, Point, Point];
  const [topLeft, bottomLeft] = b[1] > a[1] ? [a, b] : [b, a];
  const [topRight, bottomRight] = d[1] > c[1] ? [c, d] : [d, c];
  return [topLeft, topRight, bottomRight, bottomLeft];
}

const distanceBetween = (from: Point, to: Point) => Math.hypot(from[0] - to[0], from[1] - to[1]);

/** The line's pixels warped to a level rectangle; a line much taller than wide is read turned a quarter. */
function straightened(source: InstanceType<ReturnType<typeof openCv>['Mat']>, corners: Point[]): DetectedLine['crop'] {
  const cv = openCv();
  const [topLeft, topRight, bottomRight, bottomLeft] = corners as [Point, Point, Point, Point];
  const width = Math.trunc(Math.max(distanceBetween(topLeft, topRight), distanceBetween(bottomRight, bottomLeft)));
  const height = Math.trunc(Math.max(distanceBetween(topLeft, bottomLeft), distanceBetween(topRight, bottomRight)));
  const from = cv.matFromArray(4, 1, cv.CV_32FC2, corners.flat());
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width, 0, width, height, 0, height]);
  const warped = new cv.Mat();
  const turned = new cv.Mat();
  let transform: typeof warped | undefined;
  let rotation: typeof warped | undefined;
  try {
    transform = cv.getPerspectiveTransform(from, to);
    cv.warpPerspective(
      source,
      warped,
      transform,
      new cv.Size(width, height),
      cv.INTER_CUBIC,
      cv.BORDER_REPLICATE,
      new cv.Scalar(),
    );
    let result = warped;
    if (warped.rows / warped.cols >= 1.5) {
      rotation = cv.getRotationMatrix2D(new cv.Point(warped.cols / 2, warped.cols / 2), 90, 1);
      cv.warpAffine(
        warped,
        turned,
        rotation,
        new cv.Size(warped.rows, warped.cols),
        cv.INTER_CUBIC,
        cv.BORDER_REPLICATE,
        new cv.Scalar(),
      );
      result = turned;
    }
    return { data: result.data.slice(), width: result.cols, height: result.rows };
  } finally {
    from.delete();
    to.delete();
    warped.delete();
    turned.delete();
    transform?.delete();
    rotation?.delete();
  }
}
