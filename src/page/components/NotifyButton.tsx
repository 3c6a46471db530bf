/// <reference lib="dom" />
/**
 * The one place the page asks for the browser's notifications: a button the person presses,
 * never a prompt on load. Says what the browser answered.
 */
import { useState } from 'react';
import { canNotify } from '../heard-work.js';
import { usePage } from '../page-context.js';

export function NotifyButton() {
  const { pw } = usePage();
  const [permission, setPermission] = useState(canNotify() ? Notification.permission : 'denied');
  if (!canNotify()) return null;
  if (permission === 'granted') return <p className="meta">{pw.notify.on}</p>;
  if (permission === 'denied') return <p className="meta">{pw.notify.denied}</p>;
  return <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>{pw.notify.ask}</button>;
}
