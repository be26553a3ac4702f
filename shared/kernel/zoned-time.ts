/** The instant a wall-clock date and time in a zone name: `2026-11-23` `08:15:00` in Europe/Paris. */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second] = time.split(':').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offset at the guessed instant, corrected once for a guess across a change of offset.
  let instant = wall - offsetMs(zone, wall);
  instant = wall - offsetMs(zone, instant);
  return new Date(instant);
}

/** Today's date in a zone, as YYYY-MM-DD. */
export function zonedDate(instant: Date, zone: string): string {
  return formatter(zone, 'date').format(instant);
}

/** Whether the zone is one Intl knows (`Europe/Paris` is, `Mars/Olympus` is not). */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone, 'date');
    return true;
  } catch {
    return false;
  }
}

/** Building an Intl.DateTimeFormat costs far more than using one: one per zone and use, kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, use: 'date' | 'parts'): Intl.DateTimeFormat {
  const key = `${use} ${zone}`;
  let found = formatters.get(key);
  if (!found) {
    found =
      use === 'date'
        ? // en-CA writes dates as YYYY-MM-DD.
          new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          });
    formatters.set(key, found);
  }
  return found;
}

function offsetMs(zone: string, instant: number): number {
  const parts = Object.fromEntries(
    formatter(zone, 'parts')
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}
