module Main where
import qualified Data.Map as M
data Shape = Circle Double | Rect Double Double deriving (Show)
class HasArea a where
  area :: a -> Double
instance HasArea Shape where
  area (Circle r) = pi * r * r
  area (Rect w h) = w * h
sumSquares :: [Int] -> Int
sumSquares xs = sum [x * x | x <- xs, x > 0]
main :: IO ()
main = do
  let m = M.fromList [(1, "a")]
  print (area (Circle 2))
  mapM_ print $ map (\x -> x + 1) [1, 2, 3]
  case M.lookup 1 m of
    Just v -> putStrLn v
    Nothing -> return ()
type Name = String
type Pair a = (a, a)
newtype Wrapper = Wrapper { unwrap :: Int }
