import * as z from "thelib/v4";

export const name = z.string();
