// A client in another language: @kubernetes/client-node creates, lists and
// watches CronTabs against the server of $KUBECONFIG and receives the API
// server's 422 for an invalid one. It prints one JSON line of results.
import * as k8s from '@kubernetes/client-node';

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const api = kc.makeApiClient(k8s.CustomObjectsApi);
const where = { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' };
const cronTab = (name, spec) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec });
const out = {};

const created = await api.createNamespacedCustomObject({ ...where, body: cronTab('from-node', { image: 'x' }) });
out.createdCronSpec = created.spec.cronSpec;
const list = await api.listNamespacedCustomObject(where);
out.listed = list.items.map((i) => i.metadata.name);

const events = [];
const watch = new k8s.Watch(kc);
let done;
let aborting = false;
const finished = new Promise((resolve) => { done = resolve; });
const req = await watch.watch('/apis/stable.example.com/v1/namespaces/default/crontabs',
  { resourceVersion: list.metadata.resourceVersion },
  (type, obj) => { events.push(type + ' ' + obj.metadata.name); if (events.length === 2) done(); },
  (err) => { if (err && !aborting) { out.watchError = String(err); } done(); });
await api.createNamespacedCustomObject({ ...where, body: cronTab('second', {}) });
await api.deleteNamespacedCustomObject({ ...where, name: 'second' });
await finished;
aborting = true;
req.abort();
out.events = events;

try {
  await api.createNamespacedCustomObject({ ...where, body: cronTab('bad', { replicas: 50 }) });
  out.invalid = 'accepted';
} catch (e) {
  const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
  out.invalid = { code: e.code, reason: body.reason, message: body.message };
}
console.log(JSON.stringify(out));
