import { fromAscii } from './ascii';

/** The println story (seed 000): a debug fmt.Println of a protobuf message in the request path. */
export const printlnBefore = () =>
  fromAscii(`
total 100
└─ main.main 100
   └─ main.handler 100
      ├─ main.streamFromCache 70
      │  └─ google.golang.org/grpc.(*clientStream).RecvMsg 70
      └─ encoding/json.Marshal 30
`);

export const printlnAfter = () =>
  fromAscii(`
total 400
└─ main.main 400
   └─ main.handler 400
      ├─ fmt.Println 300
      │  └─ google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format 280
      ├─ main.streamFromCache 70
      │  └─ google.golang.org/grpc.(*clientStream).RecvMsg 70
      └─ encoding/json.Marshal 30
`);

/** Recursion: a function on its own stack twice. */
export const recursive = () =>
  fromAscii(`
total 10
└─ main.walk 10
   ├─ main.walk 6
   │  └─ main.visit 4
   └─ main.visit 3
`);
