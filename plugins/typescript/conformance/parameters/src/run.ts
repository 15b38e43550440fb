import { Options, Visit, configure, each } from "./options";

configure({ depth: 1 });
const visit: Visit = (o, i) => o.depth;
each((p) => p.depth);
