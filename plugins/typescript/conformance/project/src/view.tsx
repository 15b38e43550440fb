import React from "react";
import { Circle } from "./shapes/circle";

interface Props {
  circle: Circle;
}

export const Dot = ({ circle }: Props) => <span className="dot">{circle.radius}</span>;

export function Picture(props: Props) {
  return (
    <Frame.Box title="picture">
      <Dot circle={props.circle} />
    </Frame.Box>
  );
}

const Frame = { Box: (p: { title: string; children?: React.ReactNode }) => <div>{p.children}</div> };
