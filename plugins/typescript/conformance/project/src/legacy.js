"use strict";
const path = require("path");
const { clamp, Geometry: geo } = require("./util");
require("./polyfill");

class Store extends Map {
  static instances = 0;
  #hidden = true;

  /** Keep `value` under `key`, clamped. */
  put(key, value) {
    Store.instances++;
    return this.set(path.join("/", key), clamp(value, 0, geo.PI));
  }
}

function makeStore() {
  return new Store();
}

module.exports = { makeStore };
