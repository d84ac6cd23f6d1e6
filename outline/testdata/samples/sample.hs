module Main (main, Shape(..)) where
import Data.List (sort)
import qualified Data.Map as M
data Shape = Circle Double | Square Double
newtype Name = Name String
type Alias = Int
class Show' a where
  show' :: a -> String
main :: IO ()
main = print 1
helper x = x + 1
